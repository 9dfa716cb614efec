import { Temporal } from 'temporal-polyfill';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBranchService } from '../../server/catalog/service.ts';
import { generateDaySlots, priceRange, type BranchSchedule } from '../../server/catalog/schedule.ts';
import { fixedClock } from '../../server/kernel/clock.ts';
import { AppError } from '../../server/kernel/errors.ts';
import { describeEachDatabase } from './support/databases.ts';
import { createBranch, insertBooking } from './support/fixtures.ts';

const lisbonAroundTheClock: BranchSchedule = {
  timeZone: 'Europe/Lisbon',
  slotMinutes: 60,
  openingHours: null,
  defaultPriceCents: 1500,
  priceRules: [],
};

function localStarts(schedule: BranchSchedule, date: string): string[] {
  return generateDaySlots(schedule, Temporal.PlainDate.from(date)).map((slot) =>
    slot.startTime.toZonedDateTimeISO(schedule.timeZone).toString({ timeZoneName: 'never' }),
  );
}

describe('slot generation across daylight-saving changes', () => {
  it('gives a 24-hour branch 24 one-hour slots on an ordinary day', () => {
    const starts = localStarts(lisbonAroundTheClock, '2026-06-10');
    expect(starts).toHaveLength(24);
    expect(starts[0]).toBe('2026-06-10T00:00:00+01:00');
    expect(starts[23]).toBe('2026-06-10T23:00:00+01:00');
  });

  it('gives 23 slots on the spring-forward day in Lisbon, skipping the hour that does not exist', () => {
    const starts = localStarts(lisbonAroundTheClock, '2026-03-29');
    expect(starts).toHaveLength(23);
    expect(starts.slice(0, 3)).toEqual([
      '2026-03-29T00:00:00+00:00',
      '2026-03-29T02:00:00+01:00',
      '2026-03-29T03:00:00+01:00',
    ]);
    expect(starts.at(-1)).toBe('2026-03-29T23:00:00+01:00');
  });

  it('gives 25 slots on the fall-back day in Lisbon, the repeated hour once in each offset', () => {
    const starts = localStarts(lisbonAroundTheClock, '2026-10-25');
    expect(starts).toHaveLength(25);
    expect(starts.slice(0, 4)).toEqual([
      '2026-10-25T00:00:00+01:00',
      '2026-10-25T01:00:00+01:00',
      '2026-10-25T01:00:00+00:00',
      '2026-10-25T02:00:00+00:00',
    ]);
    expect(starts.at(-1)).toBe('2026-10-25T23:00:00+00:00');
  });

  it('makes every slot last exactly its length in real time, end to start, without gaps', () => {
    for (const date of ['2026-03-29', '2026-10-25']) {
      const slots = generateDaySlots(lisbonAroundTheClock, Temporal.PlainDate.from(date));
      for (const [index, slot] of slots.entries()) {
        expect(slot.startTime.until(slot.endTime).total('minutes')).toBe(60);
        if (index > 0) expect(slot.startTime.equals(slots[index - 1]!.endTime)).toBe(true);
      }
    }
  });

  it('keeps a daytime schedule at its wall-clock hours on both change days', () => {
    const daytime: BranchSchedule = {
      ...lisbonAroundTheClock,
      openingHours: Object.fromEntries(
        ['1', '2', '3', '4', '5', '6', '7'].map((day) => [day, [[360, 1320]]]),
      ),
    };
    const spring = localStarts(daytime, '2026-03-29');
    const autumn = localStarts(daytime, '2026-10-25');
    expect(spring).toHaveLength(16);
    expect(autumn).toHaveLength(16);
    expect([spring[0], spring.at(-1)]).toEqual(['2026-03-29T06:00:00+01:00', '2026-03-29T21:00:00+01:00']);
    expect([autumn[0], autumn.at(-1)]).toEqual(['2026-10-25T06:00:00+00:00', '2026-10-25T21:00:00+00:00']);
  });

  it('gives a night schedule that spans the change one slot less in spring and one more in autumn', () => {
    // 29 March and 25 October 2026 are Sundays; this branch opens on Sundays from midnight to 04:00 only.
    const sundayNights: BranchSchedule = { ...lisbonAroundTheClock, openingHours: { '7': [[0, 240]] } };
    expect(localStarts(sundayNights, '2026-03-29')).toEqual([
      '2026-03-29T00:00:00+00:00',
      '2026-03-29T02:00:00+01:00',
      '2026-03-29T03:00:00+01:00',
    ]);
    expect(localStarts(sundayNights, '2026-10-25')).toEqual([
      '2026-10-25T00:00:00+01:00',
      '2026-10-25T01:00:00+01:00',
      '2026-10-25T01:00:00+00:00',
      '2026-10-25T02:00:00+00:00',
      '2026-10-25T03:00:00+00:00',
    ]);
    expect(localStarts(sundayNights, '2026-03-30')).toEqual([]);
  });

  it('follows the rules of other zones too, and offers no slot shorter than the slot length', () => {
    const newYork: BranchSchedule = {
      ...lisbonAroundTheClock,
      timeZone: 'America/New_York',
      slotMinutes: 90,
    };
    // 8 March 2026: New York springs forward at 02:00, a 23-hour day; 23 h / 1.5 h leaves 15 whole slots.
    const starts = localStarts(newYork, '2026-03-08');
    expect(starts).toHaveLength(15);
    expect(starts.slice(0, 3)).toEqual([
      '2026-03-08T00:00:00-05:00',
      '2026-03-08T01:30:00-05:00',
      '2026-03-08T04:00:00-04:00',
    ]);
    expect(localStarts(newYork, '2026-03-09')).toHaveLength(16);
  });
});

describe('slot pricing', () => {
  const priced: BranchSchedule = {
    ...lisbonAroundTheClock,
    priceRules: [
      // Monday: cheap at night, dear at the after-work peak.
      { isoWeekday: 1, startsAtMinute: 0, endsAtMinute: 420, priceCents: 1000 },
      { isoWeekday: 1, startsAtMinute: 1020, endsAtMinute: 1260, priceCents: 2500 },
      { isoWeekday: 6, startsAtMinute: 420, endsAtMinute: 1440, priceCents: 2000 },
    ],
  };

  it('takes the rule of the slot’s local weekday and start time, else the default price', () => {
    // 1 June 2026 is a Monday; Lisbon is at UTC+1, so its first slot starts on Sunday in UTC.
    const monday = generateDaySlots(priced, Temporal.PlainDate.from('2026-06-01'));
    expect(monday[0]?.startTime.toString()).toBe('2026-05-31T23:00:00Z');
    expect(monday.map((slot) => slot.priceCents)).toEqual([
      ...Array<number>(7).fill(1000),
      ...Array<number>(10).fill(1500),
      ...Array<number>(4).fill(2500),
      ...Array<number>(3).fill(1500),
    ]);
    const saturday = generateDaySlots(priced, Temporal.PlainDate.from('2026-06-06'));
    expect(saturday.map((slot) => slot.priceCents)).toEqual([
      ...Array<number>(7).fill(1500),
      ...Array<number>(17).fill(2000),
    ]);
  });

  it('derives the cached price range from the prices a slot can really have', () => {
    expect(priceRange(priced)).toEqual({ minCents: 1000, maxCents: 2500 });
    // Closed on Mondays: neither Monday band can apply, and Saturday nights fall back to the default.
    const closedMondays: BranchSchedule = {
      ...priced,
      openingHours: Object.fromEntries(['2', '3', '4', '5', '6', '7'].map((day) => [day, [[0, 1440]]])),
    };
    expect(priceRange(closedMondays)).toEqual({ minCents: 1500, maxCents: 2000 });
    expect(priceRange({ ...priced, openingHours: {} })).toEqual({ minCents: 1500, maxCents: 1500 });
  });
});

describeEachDatabase('slot listing', (getDb) => {
  // Friday 20 March 2026, 10:30 in Lisbon (UTC+0): nine days before the spring change.
  const clock = fixedClock('2026-03-20T10:30:00Z');
  const service = () => createBranchService({ db: getDb(), clock, horizonDays: 240 });
  let branchId: number;
  let inactiveBranchId: number;

  beforeAll(async () => {
    branchId = await createBranch(getDb(), {
      priceRules: [{ isoWeekday: 5, startsAtMinute: 1020, endsAtMinute: 1260, priceCents: 2250 }],
    });
    inactiveBranchId = await createBranch(getDb(), { activeWithSmartLock: false });
    await service().ensureSlotHorizon();
  });

  async function slotAt(date: string, startTime: string) {
    const slot = (await service().listSlots(branchId, date)).find(
      (candidate) => candidate.start_time === startTime,
    );
    if (!slot) throw new Error(`no slot starts at ${startTime}`);
    return slot;
  }

  it('lists a day’s slots in order, with the branch’s offset and prices in euros', async () => {
    const slots = await service().listSlots(branchId, '2026-03-20');
    expect(slots).toHaveLength(24);
    expect(slots[0]).toMatchObject({
      start_time: '2026-03-20T00:00:00+00:00',
      end_time: '2026-03-20T01:00:00+00:00',
      basic_price_eur: 15,
    });
    expect(slots.find((slot) => slot.start_time === '2026-03-20T18:00:00+00:00')?.basic_price_eur).toBe(22.5);
    expect(slots.map((slot) => slot.start_time)).toEqual([...slots.map((slot) => slot.start_time)].sort());
  });

  it('lists 23 slots on the spring-forward day and 25 on the fall-back day', async () => {
    const spring = await service().listSlots(branchId, '2026-03-29');
    const autumn = await service().listSlots(branchId, '2026-10-25');
    expect(spring).toHaveLength(23);
    expect(spring[1]?.start_time).toBe('2026-03-29T02:00:00+01:00');
    expect(spring[0]?.end_time).toBe('2026-03-29T02:00:00+01:00');
    expect(autumn).toHaveLength(25);
    expect(autumn.slice(1, 3).map((slot) => slot.start_time)).toEqual([
      '2026-10-25T01:00:00+01:00',
      '2026-10-25T01:00:00+00:00',
    ]);
  });

  it('does not offer slots that have started or ended', async () => {
    const slots = await service().listSlots(branchId, '2026-03-20');
    expect(slots.filter((slot) => !slot.is_bookeable).map((slot) => slot.start_time)).toEqual(
      Array.from({ length: 11 }, (_, hour) => `2026-03-20T${String(hour).padStart(2, '0')}:00:00+00:00`),
    );
    expect((await service().listSlots(branchId, '2026-03-19')).some((slot) => slot.is_bookeable)).toBe(false);
  });

  it('does not offer a slot with a confirmed booking or a hold that has not expired', async () => {
    const confirmed = await slotAt('2026-03-23', '2026-03-23T09:00:00+00:00');
    const held = await slotAt('2026-03-23', '2026-03-23T10:00:00+00:00');
    await insertBooking(getDb(), { slotId: confirmed.id, status: 'confirmed' });
    await insertBooking(getDb(), {
      slotId: held.id,
      status: 'pending',
      holdExpiresAt: new Date('2026-03-20T10:45:00Z'),
    });
    expect((await slotAt('2026-03-23', confirmed.start_time)).is_bookeable).toBe(false);
    expect((await slotAt('2026-03-23', held.start_time)).is_bookeable).toBe(false);
    expect((await slotAt('2026-03-23', '2026-03-23T11:00:00+00:00')).is_bookeable).toBe(true);
  });

  it('offers a slot again once its hold has expired, even before the hold is cleaned up', async () => {
    const slot = await slotAt('2026-03-24', '2026-03-24T09:00:00+00:00');
    await insertBooking(getDb(), {
      slotId: slot.id,
      status: 'pending',
      holdExpiresAt: new Date('2026-03-20T10:29:59Z'),
    });
    expect((await slotAt('2026-03-24', slot.start_time)).is_bookeable).toBe(true);
  });

  it('offers a slot again once its booking is canceled', async () => {
    const slot = await slotAt('2026-03-25', '2026-03-25T09:00:00+00:00');
    await insertBooking(getDb(), { slotId: slot.id, status: 'canceled' });
    expect((await slotAt('2026-03-25', slot.start_time)).is_bookeable).toBe(true);
  });

  it('shows the slots of a branch that is not open for booking yet, none of them bookable', async () => {
    const slots = await service().listSlots(inactiveBranchId, '2026-03-24');
    expect(slots).toHaveLength(24);
    expect(slots.some((slot) => slot.is_bookeable)).toBe(false);
  });

  it('has no slots before today or beyond the horizon', async () => {
    expect(await service().listSlots(branchId, '2026-03-19')).toEqual([]);
    expect(await service().listSlots(branchId, '2027-03-20')).toEqual([]);
  });

  it('refuses an impossible date and an unknown branch', async () => {
    await expect(service().listSlots(branchId, '2026-02-30')).rejects.toEqual(new AppError('invalid_date'));
    await expect(service().listSlots(branchId, '2026-13-01')).rejects.toMatchObject({ code: 'invalid_date' });
    await expect(service().listSlots(branchId, '20260320')).rejects.toMatchObject({ code: 'invalid_date' });
    await expect(service().listSlots(branchId, '0000-01-01')).rejects.toMatchObject({ code: 'invalid_date' });
    // Outside the accepted years (2000 to 2100) no date is asked for in earnest.
    await expect(service().listSlots(branchId, '1999-12-31')).rejects.toMatchObject({ code: 'invalid_date' });
    await expect(service().listSlots(branchId, '2101-01-01')).rejects.toMatchObject({ code: 'invalid_date' });
    await expect(service().listSlots(987654, '2026-03-20')).rejects.toMatchObject({
      code: 'branch_not_found',
    });
  });
});

describeEachDatabase('the slot horizon', (getDb) => {
  // 12:30 on Friday 20 March in Lisbon is already 01:30 on Saturday the 21st in Auckland.
  const clock = fixedClock('2026-03-20T12:30:00Z');
  const service = () => createBranchService({ db: getDb(), clock, horizonDays: 30 });

  async function slotCount(branchId: number): Promise<number> {
    const { count } = await getDb()
      .selectFrom('slots')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('branch_id', '=', branchId)
      .executeTakeFirstOrThrow();
    return count;
  }

  it('generates each branch’s local days from today through the horizon, once', async () => {
    const lisbon = await createBranch(getDb());
    const auckland = await createBranch(getDb(), { timeZone: 'Pacific/Auckland' });
    const report = await service().ensureSlotHorizon();
    expect(report).toEqual([
      { branchId: lisbon, from: '2026-03-20', until: '2026-04-18', slotsAdded: 30 * 24 - 1 },
      // Auckland leaves daylight saving on 5 April 2026: one 25-hour day.
      { branchId: auckland, from: '2026-03-21', until: '2026-04-19', slotsAdded: 30 * 24 + 1 },
    ]);
    expect(await service().ensureSlotHorizon()).toEqual([]);
    expect(await slotCount(lisbon)).toBe(30 * 24 - 1);
  });

  it('adds only the new day when the clock moves on, and never duplicates a slot', async () => {
    const branchId = await createBranch(getDb());
    await service().ensureSlotHorizon();
    const before = await slotCount(branchId);
    clock.advance({ hours: 24 });
    try {
      const report = await service().ensureSlotHorizon();
      expect(report.find((entry) => entry.branchId === branchId)).toEqual({
        branchId,
        from: '2026-04-19',
        until: '2026-04-19',
        slotsAdded: 24,
      });
      expect(await slotCount(branchId)).toBe(before + 24);
      // Forgetting the horizon makes the next run recompute every day; existing slots are kept as they are.
      await getDb().updateTable('branches').set({ slots_generated_until: null }).execute();
      const regenerated = await service().ensureSlotHorizon();
      expect(regenerated.every((entry) => entry.slotsAdded === 0)).toBe(true);
      expect(await slotCount(branchId)).toBe(before + 24);
    } finally {
      clock.set('2026-03-20T12:30:00Z');
    }
  });

  it('is safe to run from two places at once', async () => {
    const branchId = await createBranch(getDb());
    const reports = await Promise.all([service().ensureSlotHorizon(), service().ensureSlotHorizon()]);
    const added = reports.flat().filter((entry) => entry.branchId === branchId);
    expect(added.reduce((sum, entry) => sum + entry.slotsAdded, 0)).toBe(30 * 24 - 1);
    expect(await slotCount(branchId)).toBe(30 * 24 - 1);
  });
});
