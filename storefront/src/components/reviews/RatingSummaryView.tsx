/** A rating summary: the average, its stars, the count and the distribution as a bar chart (5 stars first). */
import type { RatingSummary } from "~/contract";
import { distributionRows, formatAverage, reviewCountLabel, starsLabel } from "../../lib/reviews";
import { Stars } from "./Stars";

export function RatingSummaryView({ summary, testId = "rating-summary" }: { summary: RatingSummary; testId?: string }) {
  const rows = distributionRows(summary);
  return (
    <div className="rating-summary" data-testid={testId}>
      <div className="rating-summary__head">
        <span className="rating-summary__average" data-testid={`${testId}-average`}>
          {formatAverage(summary.average)}
        </span>
        <div>
          <Stars value={summary.average} size="lg" />
          <p className="rating-summary__count" data-testid={`${testId}-count`}>
            {reviewCountLabel(summary.count)}
          </p>
        </div>
      </div>
      <ul className="rating-dist" aria-label="Rating distribution">
        {rows.map((r) => (
          <li key={r.stars} className="rating-dist__row" aria-label={`${starsLabel(r.stars)}: ${r.count} (${r.percent}%)`}>
            <span className="rating-dist__label" aria-hidden="true">
              {r.stars} ★
            </span>
            <span className="rating-dist__bar" aria-hidden="true">
              <span className="rating-dist__fill" style={{ width: `${r.percent}%` }} />
            </span>
            <span className="rating-dist__count" aria-hidden="true">
              {r.count}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
