import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import {
  asksPasswordConfirmation,
  profileMachine,
  type ProfileUpdate,
} from '../../machines/profile.machine.ts';
import type { User } from '../../machines/session.machine.ts';

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

function start(
  options: { update?: (input: ProfileUpdate) => Promise<User>; load?: () => Promise<User> } = {},
) {
  const update = vi.fn(
    options.update ?? (async (input: ProfileUpdate) => ({ ...user, first_name: input.first_name })),
  );
  const load = vi.fn(options.load ?? (async () => user));
  const revalidate = vi.fn();
  const actor = createActor(
    profileMachine.provide({
      actors: {
        loadProfile: fromPromise(() => load()),
        updateProfile: fromPromise(({ input }) => update(input)),
      },
      actions: { revalidateSession: revalidate },
    }),
  ).start();
  const editing = () => waitFor(actor, (state) => state.matches('editing'));
  return { actor, update, load, revalidate, editing };
}

describe('the profile machine', () => {
  it('loads the user into the form', async () => {
    const { actor, editing } = start();
    await editing();
    expect(actor.getSnapshot().context.fields).toMatchObject({
      firstName: 'Ana',
      lastName: 'Silva',
      email: 'ana@example.pt',
      phone: '+351912345678',
      newPassword: '',
    });
    expect(actor.getSnapshot().context.agreeNewsletter).toBe(true);
  });

  it('asks to confirm the new password only once one is typed', async () => {
    const { actor, editing } = start();
    await editing();
    expect(asksPasswordConfirmation(actor.getSnapshot().context)).toBe(false);
    actor.send({ type: 'field.change', field: 'newPassword', value: 'x' });
    expect(asksPasswordConfirmation(actor.getSnapshot().context)).toBe(true);
  });

  it('updates with the sanitised phone, no password (null), then re-validates the session', async () => {
    const { actor, update, revalidate, editing } = start();
    await editing();
    actor.send({ type: 'field.change', field: 'firstName', value: ' Mariana ' });
    actor.send({ type: 'field.change', field: 'phone', value: ' +351 913 000 000 ' });
    actor.send({ type: 'newsletter.change', checked: false });
    actor.send({ type: 'profile.submit' });
    await waitFor(actor, (state) => state.matches('editing') && state.context.success !== null);
    expect(update).toHaveBeenCalledWith({
      first_name: 'Mariana',
      last_name: 'Silva',
      email: 'ana@example.pt',
      phone_number: '+351913000000',
      password: null,
      agree_newsletter: false,
      tax_id: null,
    });
    expect(actor.getSnapshot().context.success).toEqual({ key: 'profile-updated-successfully' });
    expect(actor.getSnapshot().context.fields.firstName).toBe('Mariana');
    expect(revalidate).toHaveBeenCalledTimes(1);
  });

  it('sends a typed new password when it is confirmed', async () => {
    const { actor, update, editing } = start();
    await editing();
    actor.send({ type: 'field.change', field: 'newPassword', value: 'Nova-2026-senha' });
    actor.send({ type: 'field.change', field: 'confirmNewPassword', value: 'Nova-2026-senha' });
    actor.send({ type: 'profile.submit' });
    await waitFor(actor, (state) => state.matches('editing') && state.context.success !== null);
    expect(update.mock.calls[0]?.[0].password).toBe('Nova-2026-senha');
    expect(actor.getSnapshot().context.fields.newPassword).toBe('');
  });

  it('refuses different passwords and an invalid phone without a call', async () => {
    const { actor, update, editing } = start();
    await editing();
    actor.send({ type: 'field.change', field: 'newPassword', value: 'a' });
    actor.send({ type: 'field.change', field: 'confirmNewPassword', value: 'b' });
    actor.send({ type: 'profile.submit' });
    expect(actor.getSnapshot().context.error).toEqual({ key: 'passwords-do-not-match' });
    actor.send({ type: 'field.change', field: 'newPassword', value: '' });
    actor.send({ type: 'field.change', field: 'phone', value: '912 345 678' });
    actor.send({ type: 'profile.submit' });
    expect(actor.getSnapshot().context.error).toEqual({ key: 'invalid-phone-number' });
    expect(update).not.toHaveBeenCalled();
  });

  it('makes no call while a required field is empty', async () => {
    const { actor, update, editing } = start();
    await editing();
    actor.send({ type: 'field.change', field: 'lastName', value: ' ' });
    actor.send({ type: 'profile.submit' });
    expect(update).not.toHaveBeenCalled();
  });

  it('shows the server’s refusal, can-not-update-profile without a detail, the generic message on 5xx', async () => {
    for (const [error, expected] of [
      [
        new ApiError('phone_in_use', 'This phone number is already in use.'),
        { text: 'This phone number is already in use.' },
      ],
      [new ApiError('validation_failed'), { key: 'can-not-update-profile' }],
      [new ApiError('internal_error', 'boom'), { key: 'generic' }],
    ] as const) {
      const { actor, revalidate, editing } = start({ update: () => Promise.reject(error) });
      await editing();
      actor.send({ type: 'profile.submit' });
      await waitFor(actor, (state) => state.matches('editing') && state.context.error !== null);
      expect(actor.getSnapshot().context.error).toEqual(expected);
      expect(revalidate).not.toHaveBeenCalled();
    }
  });

  it('offers a retry when the profile cannot be read', async () => {
    let fail = true;
    const { actor, editing } = start({
      load: async () => {
        if (fail) throw new ApiError(null);
        return user;
      },
    });
    await waitFor(actor, (state) => state.matches('loadFailed'));
    fail = false;
    actor.send({ type: 'profile.reload' });
    await editing();
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});

describe('the tax number (NIF)', () => {
  it('refuses a wrong check digit beside the field without a call, and sends a valid one', async () => {
    const saved: unknown[] = [];
    const machine = profileMachine.provide({
      actors: {
        loadProfile: fromPromise(async () => user),
        updateProfile: fromPromise(async ({ input }) => {
          saved.push(input);
          return { ...user, tax_id: (input as { tax_id: string | null }).tax_id };
        }),
      },
    });
    const actor = createActor(machine).start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'field.change', field: 'taxId', value: '123456788' });
    actor.send({ type: 'profile.submit' });
    expect(actor.getSnapshot().context.fieldErrors.taxId).toEqual({ field: 'tax_id', problem: 'invalid' });
    expect(saved).toEqual([]);
    actor.send({ type: 'field.change', field: 'taxId', value: ' 123 456 789 ' });
    expect(actor.getSnapshot().context.fieldErrors.taxId).toBeUndefined();
    actor.send({ type: 'profile.submit' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.success !== null);
    expect(saved).toEqual([expect.objectContaining({ tax_id: '123 456 789' })]);
  });
});
