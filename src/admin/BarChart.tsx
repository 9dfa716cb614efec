import { Text } from '@mantine/core';

export type Bar = { label: string; value: number };

/**
 * A bar chart in plain SVG (no chart library in the console's chunk): one bar per period, the value written on
 * each bar and the whole chart described by `title` for screen readers; a table with the same figures sits
 * beside it on the page.
 */
export function BarChart({
  bars,
  title,
  format,
  label,
}: {
  bars: Bar[];
  title: string;
  format: (value: number) => string;
  /** The period's name under its bar and in its tooltip. */
  label: (period: string) => string;
}) {
  const width = 640;
  const height = 200;
  const max = Math.max(Number.EPSILON, ...bars.map((bar) => Math.abs(bar.value)));
  const step = bars.length ? width / bars.length : width;
  const barWidth = Math.max(2, step * 0.7);
  if (bars.length === 0) return null;
  return (
    <figure style={{ margin: 0 }}>
      <svg
        viewBox={`0 0 ${width} ${height + 24}`}
        width="100%"
        role="img"
        aria-label={title}
        style={{ maxHeight: 260 }}
      >
        <line
          x1={0}
          x2={width}
          y1={height + 0.5}
          y2={height + 0.5}
          stroke="var(--mantine-color-gray-6)"
          strokeWidth={1}
        />
        {bars.map((bar, index) => {
          // A small value keeps a visible sliver; a zero draws only the baseline.
          const barHeight = bar.value === 0 ? 0 : Math.max(3, (Math.abs(bar.value) / max) * (height - 16));
          const x = index * step + (step - barWidth) / 2;
          return (
            <g key={`${bar.label}-${index}`}>
              <rect
                x={x}
                y={height - barHeight}
                width={barWidth}
                height={barHeight}
                fill={bar.value < 0 ? 'var(--mantine-color-red-6)' : 'var(--mantine-color-lime-5)'}
              >
                <title>{`${label(bar.label)}: ${format(bar.value)}`}</title>
              </rect>
              {bars.length <= 16 && (
                <text
                  x={x + barWidth / 2}
                  y={height + 16}
                  fontSize="11"
                  textAnchor="middle"
                  fill="currentColor"
                >
                  {label(bar.label)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <Text component="figcaption" size="xs" c="gray.4">
        {title}
      </Text>
    </figure>
  );
}
