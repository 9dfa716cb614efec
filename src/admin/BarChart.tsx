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
}: {
  bars: Bar[];
  title: string;
  format: (value: number) => string;
}) {
  const width = 640;
  const height = 200;
  const max = Math.max(1, ...bars.map((bar) => Math.abs(bar.value)));
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
        {bars.map((bar, index) => {
          const barHeight = (Math.abs(bar.value) / max) * (height - 16);
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
                <title>{`${bar.label}: ${format(bar.value)}`}</title>
              </rect>
              {bars.length <= 16 && (
                <text
                  x={x + barWidth / 2}
                  y={height + 16}
                  fontSize="11"
                  textAnchor="middle"
                  fill="currentColor"
                >
                  {bar.label.slice(5)}
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
