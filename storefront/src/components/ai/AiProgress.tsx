/** A progress bar for AI work (training, try-on): a real <progressbar> with a label and percentage. */
import "../../tryon.css";

export function AiProgress({ label, percent, testId }: { label: string; percent: number | null; testId?: string }) {
  const indeterminate = percent === null;
  const value = indeterminate ? undefined : Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <div className={`ai-progress${indeterminate ? " ai-progress--indeterminate" : ""}`} data-testid={testId} data-percent={value}>
      <div className="ai-progress__label">
        <span>{label}</span>
        {!indeterminate && <span aria-hidden="true">{value}%</span>}
      </div>
      <div
        className="ai-progress__bar"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        aria-valuetext={indeterminate ? label : `${label}: ${value}%`}
      >
        <div className="ai-progress__fill" style={{ width: `${value ?? 35}%` }} />
      </div>
    </div>
  );
}
