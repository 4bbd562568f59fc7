/**
 * A small horizontal bar chart for numbers people compare (no chart library needed for this:
 * plain SVG, accessible as a labelled table of values).
 */
export function BarChart({ data, unit = "" }: { data: { label: string; value: number }[]; unit?: string }) {
  const max = Math.max(1, ...data.map((d) => d.value));
  const rowH = 28;
  const labelW = 110;
  const width = 420;
  return (
    <svg role="img" aria-label={data.map((d) => `${d.label}: ${d.value}${unit}`).join(", ")} viewBox={`0 0 ${width} ${data.length * rowH}`} width="100%" style={{ maxWidth: width * 1.25, display: "block" }}>
      {data.map((d, i) => {
        const w = ((width - labelW - 60) * d.value) / max;
        return (
          <g key={d.label} transform={`translate(0, ${i * rowH})`}>
            <text x="0" y="18" fontSize="13" fill="#303030">
              {d.label}
            </text>
            <rect x={labelW} y="6" width={Math.max(2, w)} height="16" rx="3" fill="#3574f2" />
            <text x={labelW + Math.max(2, w) + 6} y="18" fontSize="13" fill="#616161">
              {d.value.toLocaleString("en")}
              {unit}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
