import { afterAll, describe, expect, it } from 'vitest';
import { isValidPortugueseTaxId } from '../../openapi/tax-id.ts';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import { profileMachine, type ProfileUpdate } from '../../machines/profile.machine.ts';
import type { User } from '../../machines/session.machine.ts';
import { coverageOf, generatePaths, replayPath } from './model/harness.ts';

const user: User = {
  email: 'ana@example.pt',
  phone_number: '+351912345678',
  first_name: 'Ana',
  last_name: 'Silva',
  agree_newsletter: true,
  distinct_id: 'u-1',
  email_verified: true,
  phone_verified: true,
  locale: 'pt',
  tax_id: null,
  offered_coupon: null,
};

type Event = EventFrom<typeof profileMachine>;
type Snapshot = SnapshotFrom<typeof profileMachine>;

const NEW_PASSWORD = 'Nova-2026-senha';
// A few representative values per field: a blank required field, a phone that does not sanitise, a new
// password with its confirmation equal, different, or missing.
const EDITS = [
  { type: 'field.change', field: 'lastName', value: ' ' },
  { type: 'field.change', field: 'lastName', value: ' Costa ' },
  { type: 'field.change', field: 'phone', value: '912 345 678' },
  { type: 'field.change', field: 'phone', value: ' +351 913 000 000 ' },
  { type: 'field.change', field: 'newPassword', value: NEW_PASSWORD },
  { type: 'field.change', field: 'newPassword', value: '' },
  { type: 'field.change', field: 'confirmNewPassword', value: NEW_PASSWORD },
  { type: 'field.change', field: 'confirmNewPassword', value: 'something else' },
  { type: 'field.change', field: 'confirmNewPassword', value: '' },
  { type: 'field.change', field: 'taxId', value: '123456788' },
  { type: 'field.change', field: 'taxId', value: '' },
  { type: 'newsletter.change', checked: false },
  { type: 'profile.submit' },
] as unknown as Event[];
const ANSWERS = [
  { type: 'xstate.done.actor.loadProfile', output: user },
  { type: 'xstate.error.actor.loadProfile', error: new ApiError(null) },
  { type: 'xstate.done.actor.updateProfile', output: { ...user, last_name: 'Costa' } },
  {
    type: 'xstate.error.actor.updateProfile',
    error: new ApiError('phone_in_use', 'This phone is already in use.'),
  },
  { type: 'xstate.error.actor.updateProfile', error: new ApiError('internal_error') },
  {
    type: 'xstate.error.actor.updateProfile',
    error: new ApiError('validation_failed', "Invalid request: 'last_name' is too long or too large", {
      fields: [{ field: 'last_name', problem: 'too_long', limit: 100 }],
    }),
  },
] as unknown as Event[];

const coverage = coverageOf(profileMachine);
afterAll(() => coverage.save());

/** The form as its guards see it: which fields are filled or valid, never the raw strings. */
function formOf(state: Snapshot): string {
  const { fields } = state.context;
  const confirm =
    fields.confirmNewPassword === ''
      ? 'empty'
      : fields.confirmNewPassword === NEW_PASSWORD
        ? 'same'
        : 'other';
  return [
    `names:${[fields.firstName, fields.lastName, fields.email].every((value) => value.trim() !== '')}`,
    `phone:${/^\+\d{8,17}$/.test(fields.phone.replace(/\s+/g, '')) ? 'valid' : fields.phone === '' ? 'empty' : 'invalid'}`,
    `new:${fields.newPassword === '' ? 'empty' : 'typed'}`,
    `confirm:${confirm}`,
    `tax:${fields.taxId === '' ? 'empty' : isValidPortugueseTaxId(fields.taxId) ? 'valid' : 'invalid'}`,
  ].join(' ');
}

describe('profile machine, model-based', () => {
  const paths = generatePaths(profileMachine, {
    // The form is only on screen (and editable) once the profile is read.
    events: (state) =>
      state.matches('editing')
        ? [...EDITS, ...ANSWERS]
        : [...ANSWERS, { type: 'profile.reload' } satisfies Event],
    serializeState: (state) => `${JSON.stringify(state.value)} ${formOf(state)}`,
    maxStatesForSimplePaths: 0,
  });

  for (const path of paths) {
    it.concurrent(`follows ${path.description} to ${JSON.stringify(path.state.value)}`, async () => {
      const updates: ProfileUpdate[] = [];
      let revalidations = 0;
      let saved = 0;
      let previous: Snapshot | null = null;
      await replayPath(profileMachine, path, {
        scripted: ['loadProfile', 'updateProfile'],
        coverage,
        provide: { actions: { revalidateSession: () => (revalidations += 1) } },
        onCall: (id, input) => {
          if (id === 'updateProfile') updates.push(input as ProfileUpdate);
        },
        check: (snapshot, step) => {
          const type = step.event.type as string;
          const { error, success, fields } = snapshot.context;
          // An error and a success message are never shown together.
          expect(error !== null && success !== null).toBe(false);
          // The session is re-validated once per saved profile, and only then.
          if (type === 'xstate.done.actor.updateProfile') saved += 1;
          expect(revalidations).toBe(saved);
          if (type === 'profile.submit' && previous) {
            const before = previous.context.fields;
            const mismatch = before.newPassword !== '' && before.newPassword !== before.confirmNewPassword;
            const badPhone = !/^\+\d{8,17}$/.test(before.phone.replace(/\s+/g, ''));
            const blank = [before.firstName, before.lastName, before.email].some((value) => !value.trim());
            const badTaxId = before.taxId !== '' && !isValidPortugueseTaxId(before.taxId);
            if (badTaxId && !mismatch && !badPhone)
              expect(snapshot.context.fieldErrors.taxId).toEqual({ field: 'tax_id', problem: 'invalid' });
            if (mismatch || badPhone || blank || badTaxId) {
              // A client-side refusal never reaches the API and leaves no call pending.
              expect(updates).toHaveLength(0);
              expect(Object.keys(snapshot.children)).toEqual([]);
              if (mismatch) expect(error).toEqual({ key: 'passwords-do-not-match' });
              else if (badPhone) expect(error).toEqual({ key: 'invalid-phone-number' });
            } else {
              // What is sent: trimmed names, the sanitised phone, the new password or null.
              const sent = updates.at(-1);
              expect(sent?.last_name).toBe(before.lastName.trim());
              expect(sent?.phone_number).toBe(before.phone.replace(/\s+/g, ''));
              expect(sent?.password).toBe(before.newPassword === '' ? null : before.newPassword);
              expect(sent?.agree_newsletter).toBe(previous.context.agreeNewsletter);
            }
          }
          // A refused field is told beside that field, never as the server's sentence at the top.
          const raw = step.event as { error?: ApiError; field?: string };
          if (type === 'xstate.error.actor.updateProfile' && raw.error?.fields.length) {
            expect(snapshot.context.fieldErrors.lastName).toEqual({
              field: 'last_name',
              problem: 'too_long',
              limit: 100,
            });
            expect(error).toBeNull();
          }
          // Editing a refused field clears its message.
          if (type === 'field.change' && raw.field === 'lastName')
            expect(snapshot.context.fieldErrors.lastName).toBeUndefined();
          // A saved profile keeps no password in the form.
          if (type === 'xstate.done.actor.updateProfile') {
            expect([fields.newPassword, fields.confirmNewPassword]).toEqual(['', '']);
            expect(success).not.toBeNull();
          }
          previous = snapshot;
        },
      });
    });
  }
});

describe('profile machine, generated paths', () => {
  it('cover every state and at least 95% of the transitions', () => {
    coverage.assertComplete();
  });
});
