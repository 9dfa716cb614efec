// The price rules as the console shows them (issue 18): a weekday by time-of-day grid. The server keeps a
// default price and bands (weekday, from, to, price); the grid cuts each day at every band edge, so each cell
// is one price, and saving turns the grid back into the fewest bands (equal neighbours merged, the default
// left out).

export type PriceBand = { weekday: number; from: string; to: string; price_eur: number };

export type PriceGridModel = {
  /** The day's cuts, '00:00' first and '24:00' last. */
  edges: string[];
  /** cells[row][weekday - 1]: the price of the row's time span on that weekday, in euros. */
  cells: number[][];
};

const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7];
const TIME = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;

export function isTimeOfDay(value: string): boolean {
  return TIME.test(value);
}

function priceAt(bands: PriceBand[], weekday: number, from: string, defaultPrice: number): number {
  // The last matching band wins, as later rules override earlier ones.
  const band = bands.filter((item) => item.weekday === weekday && item.from <= from && from < item.to).at(-1);
  return band ? band.price_eur : defaultPrice;
}

export function gridOf(bands: PriceBand[], defaultPrice: number): PriceGridModel {
  const edges = [...new Set(['00:00', '24:00', ...bands.flatMap((band) => [band.from, band.to])])].sort();
  const cells = edges
    .slice(0, -1)
    .map((from) => WEEKDAYS.map((weekday) => priceAt(bands, weekday, from, defaultPrice)));
  return { edges, cells };
}

/** Cuts the day at `time` too (the new rows keep the prices they had). */
export function splitAt(grid: PriceGridModel, time: string): PriceGridModel {
  if (!isTimeOfDay(time) || time === '24:00' || grid.edges.includes(time)) return grid;
  const edges = [...grid.edges, time].sort();
  const cells = edges.slice(0, -1).map((from) => {
    const row = grid.edges.filter((edge) => edge <= from).length - 1;
    return [...(grid.cells[row] ?? [])];
  });
  return { edges, cells };
}

export function setCell(grid: PriceGridModel, row: number, weekday: number, price: number): PriceGridModel {
  return {
    ...grid,
    cells: grid.cells.map((cells, index) =>
      index === row ? cells.map((cell, day) => (day === weekday - 1 ? price : cell)) : cells,
    ),
  };
}

export function bandsOf(grid: PriceGridModel, defaultPrice: number): PriceBand[] {
  const bands: PriceBand[] = [];
  for (const weekday of WEEKDAYS) {
    let open: PriceBand | null = null;
    grid.cells.forEach((cells, row) => {
      const price = cells[weekday - 1] ?? defaultPrice;
      const from = grid.edges[row] ?? '00:00';
      const to = grid.edges[row + 1] ?? '24:00';
      if (open && open.price_eur === price && open.to === from) {
        open.to = to;
        return;
      }
      if (open) bands.push(open);
      open = price === defaultPrice ? null : { weekday, from, to, price_eur: price };
    });
    if (open) bands.push(open);
  }
  return bands;
}
