import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import {
  adminBroadcastMachine,
  isBroadcastComplete,
  smsLength,
  type BroadcastRequest,
} from '../../machines/adminBroadcast.machine.ts';
import { ApiError } from '../../machines/api.ts';
import { coverageOf, generatePaths, replayPath } from './model/harness.ts';

type Event = EventFrom<typeof adminBroadcastMachine>;
type Snapshot = SnapshotFrom<typeof adminBroadcastMachine>;

const preview = { members: 2, by_email: 2, by_sms: 2, languages: [{ locale: 'fr', members: 2 }] };
const sent = { id: 7, recipients: 2 };
const EVENTS = [
  { type: 'branch.change', branchId: 1, timeZone: 'Europe/Lisbon' },
  { type: 'field.change', field: 'from', value: '2026-11-24T18:00' },
  { type: 'field.change', field: 'to', value: '2026-11-24T23:00' },
  { type: 'channel.toggle', channel: 'sms', on: true },
  { type: 'language.toggle', locale: 'fr', on: true },
  { type: 'language.toggle', locale: 'pt', on: false },
  { type: 'text.change', locale: 'pt', field: 'subject', value: 'Aviso' },
  { type: 'text.change', locale: 'pt', field: 'body', value: 'Sem ar condicionado.' },
  { type: 'text.change', locale: 'fr', field: 'body', value: 'Pas de climatisation.' },
  { type: 'broadcast.preview' },
  { type: 'broadcast.back' },
  { type: 'broadcast.send' },
  { type: 'broadcast.again' },
  { type: 'xstate.done.actor.previewBroadcast', output: preview },
  { type: 'xstate.error.actor.previewBroadcast', error: new ApiError('branch_not_found', 'No such branch.') },
  { type: 'xstate.error.actor.previewBroadcast', error: new ApiError('unauthorized', 'Session ended.') },
  { type: 'xstate.done.actor.sendBroadcast', output: sent },
  { type: 'xstate.error.actor.sendBroadcast', error: new ApiError('service_unavailable') },
  { type: 'xstate.error.actor.sendBroadcast', error: new ApiError('unauthorized', 'Session ended.') },
] as unknown as Event[];

const coverage = coverageOf(adminBroadcastMachine);
afterAll(() => coverage.save());

describe('broadcast machine, model-based', () => {
  const paths = generatePaths(adminBroadcastMachine, {
    events: EVENTS,
    serializeState: (state) =>
      `${JSON.stringify(state.value)} ${JSON.stringify(state.context.fields)} preview:${state.context.preview !== null} error:${state.context.error !== null}`,
    maxStatesForSimplePaths: 0,
  });
  for (const path of paths) {
    it.concurrent(`follows ${path.description} to ${JSON.stringify(path.state.value)}`, async () => {
      const calls: { id: string; request: unknown }[] = [];
      let reported = 0;
      let sends = 0;
      let previous: Snapshot | null = null;
      await replayPath(adminBroadcastMachine, path, {
        scripted: ['previewBroadcast', 'sendBroadcast'],
        coverage,
        provide: { actions: { sent: () => (reported += 1) } },
        onCall: (id, request) => calls.push({ id, request }),
        check: (snapshot, step) => {
          const type = step.event.type as string;
          // Only a complete form (branch, period, a channel, a text in every language picked) is previewed.
          if (type === 'broadcast.preview' && previous)
            expect(snapshot.matches('previewing')).toBe(isBroadcastComplete(previous.context.fields));
          // pt is always written: it is what a member whose language has no text reads.
          expect(snapshot.context.fields.languages[0]).toBe('pt');
          // What is sent is what was previewed, with the texts of the languages picked and one key per preview.
          if (type === 'broadcast.send') {
            const last = calls.at(-1)!;
            const before = calls.filter((call) => call.id === 'previewBroadcast').at(-1)!;
            expect(last.id).toBe('sendBroadcast');
            const request = last.request as BroadcastRequest;
            expect(request).toMatchObject(before.request as object);
            expect(Object.keys(request.texts)).toEqual(snapshot.context.fields.languages);
            expect(request.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
            // A retried send keeps its key: the server makes one broadcast of both.
            const earlier = calls
              .filter((call) => call.id === 'sendBroadcast')
              .slice(0, -1)
              .at(-1);
            if (earlier && previous?.context.idempotencyKey === snapshot.context.idempotencyKey)
              expect((earlier.request as BroadcastRequest).idempotencyKey).toBe(request.idempotencyKey);
          }
          // The count shown always belongs to the form as it is.
          if (snapshot.matches('editing')) expect(snapshot.context.preview).toBeNull();
          // Each broadcast the server confirms is reported once, so the list behind reloads.
          if (type === 'xstate.done.actor.sendBroadcast') sends += 1;
          expect(reported).toBe(sends);
          previous = snapshot;
        },
      });
    });
  }
});

describe('broadcast machine, generated paths', () => {
  it('cover every state and at least 95% of the transitions', () => {
    coverage.assertComplete();
  });
});

describe('the SMS length shown', () => {
  it('counts 160 plain characters as one SMS and longer texts in parts of 153', () => {
    expect(smsLength('')).toEqual({ characters: 0, parts: 0 });
    expect(smsLength('a'.repeat(160))).toEqual({ characters: 160, parts: 1 });
    expect(smsLength('a'.repeat(161))).toEqual({ characters: 161, parts: 2 });
  });
  it('counts a text with characters outside the SMS alphabet in parts of 70 and 67', () => {
    expect(smsLength('Avariado às 18h').parts).toBe(1);
    expect(smsLength('ã'.repeat(70))).toEqual({ characters: 70, parts: 1 });
    expect(smsLength('ã'.repeat(71))).toEqual({ characters: 71, parts: 2 });
  });
});
