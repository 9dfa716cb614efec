import { describe, expect, it } from 'vitest';
import { bandsOf, gridOf, setCell, splitAt } from '../../machines/adminPrices.ts';

describe('the price grid', () => {
  const bands = [
    { weekday: 1, from: '18:00', to: '22:00', price_eur: 30 },
    { weekday: 6, from: '08:00', to: '12:00', price_eur: 25 },
  ];

  it('cuts every day at every band edge and shows the default elsewhere', () => {
    const grid = gridOf(bands, 20);
    expect(grid.edges).toEqual(['00:00', '08:00', '12:00', '18:00', '22:00', '24:00']);
    expect(grid.cells[3]).toEqual([30, 20, 20, 20, 20, 20, 20]);
    expect(grid.cells[1]).toEqual([20, 20, 20, 20, 20, 25, 20]);
  });

  it('gives back the same bands when nothing changed', () => {
    expect(bandsOf(gridOf(bands, 20), 20)).toEqual(bands);
  });

  it('merges equal neighbours and leaves out the default', () => {
    let grid = gridOf(bands, 20);
    grid = setCell(grid, 4, 1, 30); // Monday 22:00-24:00 like 18:00-22:00
    grid = setCell(grid, 1, 6, 20); // Saturday morning back to the default
    expect(bandsOf(grid, 20)).toEqual([{ weekday: 1, from: '18:00', to: '24:00', price_eur: 30 }]);
  });

  it('splits a row at a new time, keeping its prices, and ignores a time it already has or a bad one', () => {
    const grid = splitAt(gridOf(bands, 20), '20:00');
    expect(grid.edges).toEqual(['00:00', '08:00', '12:00', '18:00', '20:00', '22:00', '24:00']);
    expect(grid.cells[3]?.[0]).toBe(30);
    expect(grid.cells[4]?.[0]).toBe(30);
    expect(splitAt(grid, '20:00')).toBe(grid);
    expect(splitAt(grid, '25:00')).toBe(grid);
    const changed = setCell(grid, 4, 1, 35);
    expect(bandsOf(changed, 20)[0]).toEqual({ weekday: 1, from: '18:00', to: '20:00', price_eur: 30 });
  });
});
