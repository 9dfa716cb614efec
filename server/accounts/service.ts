import type { Actor } from '../kernel/audit.ts';
import { dateFromInstant, type Clock } from '../kernel/clock.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { runTransaction, type TransactionRetryLog } from '../kernel/transactions.ts';
import { AppError, CONTACT_BLOCKED_ON_PROFILE, type PendingVerification } from '../kernel/errors.ts';
import type { Locale } from '../kernel/i18n.ts';
import { queueEmail, queueSms } from '../kernel/outbox.ts';
import {
  deleteMessagesTo,
  emailChangedMessage,
  resetPasswordMessage,
  verifyEmailMessage,
  verifyPhoneSmsMessage,
} from '../notifications/index.ts';
import { accountMessage } from './messages.ts';
import { assertPasswordPolicy, type PasswordHasher } from './passwords.ts';
import { cleanName, cleanTaxId, normaliseEmail, sanitisePhoneNumber } from './fields.ts';
import type { RateLimiter } from './rate-limiter.ts';
import * as repository from './repository.ts';
import type { CodeChannel, UserRow } from './repository.ts';
import { randomSixDigitCode, randomToken, sha256, type AuthKeys } from './secrets.ts';
import type { SessionTokens } from './session-tokens.ts';
import type { components } from '../../openapi/schema.gen.ts';

type Schemas = components['schemas'];

export const CODE_LIFETIME_MINUTES = 15;
export const RESET_LINK_LIFETIME_MINUTES = 60;

/** Who is calling: the address the rate limits count against and the language of the answer. */
export type CallContext = {
  ip: string;
  locale: Locale;
  /** Resolves once the answer has been sent; work the answer must not wait for starts after it. */
  answered?: Promise<void>;
};

export type RegisterInput = Schemas['RegisterRequest'];

export type ProfileInput = Schemas['ProfileUpdate'];

/**
 * Runs inside the deletion transaction before the personal data is erased. The bookings issue plugs in here
 * to cancel and refund upcoming bookings; throwing aborts the deletion and changes nothing.
 */
export type AccountErasureStep = (
  trx: Db,
  user: UserRow,
  now: Date,
  erasedBy: AccountEraser | null,
) => Promise<void>;

/** An operator erasing an account (GDPR), and why; null when the member deletes their own account. */
export type AccountEraser = { actor: Actor; reason: string };

export type AuthService = ReturnType<typeof createAuthService>;

export function createAuthService(deps: {
  db: Db;
  clock: Clock;
  config: Config;
  hasher: PasswordHasher;
  tokens: SessionTokens;
  keys: AuthKeys;
  limiter: RateLimiter;
  /** Runs work after the caller has its answer (the recovery calls, whose timing must not reveal accounts). */
  afterAnswer: (name: string, work: () => Promise<unknown>, answered?: Promise<void>) => void;
  beforeErasure?: AccountErasureStep[];
  /** The coupon a member is offered without typing it (the early bird), read in `trx`; none when absent. */
  findOfferedCoupon?: (userId: string, trx: Db) => Promise<Schemas['OfferedCoupon'] | null>;
  /** Where a transaction run again after a deadlock is reported (runTransaction); not reported when absent. */
  log?: TransactionRetryLog | null;
}) {
  const { db, clock, config, hasher, tokens, keys, limiter } = deps;
  const findOfferedCoupon = deps.findOfferedCoupon ?? (async () => null);
  const now = () => dateFromInstant(clock.now());
  const minutesFrom = (start: Date, minutes: number) => new Date(start.getTime() + minutes * 60_000);
  const codeHash = (channel: CodeChannel, code: string) =>
    keys.keyedHash(`verification-code:${channel}`, code);

  async function issueCode(trx: Db, user: UserRow, channel: CodeChannel, at: Date): Promise<string> {
    await repository.retireCodes(trx, user.id, channel, at);
    const target = channel === 'email' ? user.email : user.phone_number;
    if (!target) throw new Error('a verification code needs an e-mail address or phone number');
    // A live code must be unique in its channel (the confirm calls find the account by the code alone);
    // with at most a few hundred live codes among a million, a second draw is rare and a tenth never needed.
    for (let draw = 0; draw < 10; draw += 1) {
      const code = randomSixDigitCode();
      const stored = await repository.insertCodeIfUnique(trx, {
        userId: user.id,
        channel,
        target,
        codeHash: codeHash(channel, code),
        expiresAt: minutesFrom(at, CODE_LIFETIME_MINUTES),
        now: at,
      });
      if (stored) return code;
    }
    throw new Error('could not draw a verification code that is not in use');
  }

  async function sendEmailCode(trx: Db, user: UserRow, at: Date): Promise<void> {
    const code = await issueCode(trx, user, 'email', at);
    const email = user.email as string;
    const link = new URL(`${config.publicUrl}/${user.locale}`);
    link.search = new URLSearchParams({
      auth_tab: 'verify',
      verify_email: email,
      verify_email_code: code,
    }).toString();
    await queueEmail(trx, {
      to: email,
      locale: user.locale,
      kind: 'verify-email',
      email: verifyEmailMessage({
        locale: user.locale,
        brand: config.companyName,
        firstName: user.first_name,
        code,
        link: link.toString(),
        minutes: CODE_LIFETIME_MINUTES,
        // An account the early-bird coupon applies to learns its code and terms with its first message.
        offer: await findOfferedCoupon(user.id, trx).then(
          (coupon) =>
            coupon && {
              code: coupon.code,
              discount: coupon.discount,
              remainingUses: coupon.remaining_uses,
            },
        ),
      }),
      now: at,
    });
  }

  async function sendPhoneCode(trx: Db, user: UserRow, at: Date): Promise<void> {
    const code = await issueCode(trx, user, 'phone', at);
    await queueSms(trx, {
      to: user.phone_number as string,
      locale: user.locale,
      kind: 'verify-phone',
      text: verifyPhoneSmsMessage({
        locale: user.locale,
        brand: config.companyName,
        code,
        minutes: CODE_LIFETIME_MINUTES,
      }),
      now: at,
    });
  }

  /** A unique-constraint race lost to a concurrent request says the same as the check before it. */
  function contactConflict(error: unknown): AppError | null {
    const constraint =
      (error as { code?: string; constraint?: string }).code === '23505'
        ? (error as { constraint?: string }).constraint
        : undefined;
    if (constraint === 'users_email_unique') return new AppError('email_in_use');
    if (constraint === 'users_phone_number_unique') return new AppError('phone_in_use');
    return null;
  }

  async function assertContactsFree(contacts: { email: string; phoneNumber: string }, exceptUserId?: string) {
    const owners = (await repository.findContactOwners(db, contacts)).filter(
      (row) => row.id !== exceptUserId,
    );
    if (owners.some((row) => row.email === contacts.email)) throw new AppError('email_in_use');
    if (owners.some((row) => row.phone_number === contacts.phoneNumber)) throw new AppError('phone_in_use');
  }

  async function view(user: UserRow): Promise<Schemas['User']> {
    return {
      email: user.email ?? '',
      phone_number: user.phone_number ?? '',
      first_name: user.first_name,
      last_name: user.last_name,
      agree_newsletter: user.agree_newsletter,
      // The account's random id: stable for life, meaningless outside this product.
      distinct_id: user.id,
      email_verified: user.email_verified_at !== null,
      phone_verified: user.phone_verified_at !== null,
      locale: user.locale,
      tax_id: user.tax_id,
      offered_coupon: await findOfferedCoupon(user.id, db),
    };
  }

  return {
    async register(input: RegisterInput, context: CallContext) {
      const email = normaliseEmail(input.email);
      await limiter.consume('register.ip', context.ip);
      await limiter.consume('register.contact', `email:${email}`);
      if (input.password !== input.confirm_password) throw new AppError('passwords_do_not_match');
      assertPasswordPolicy(input.password);
      const phoneNumber = sanitisePhoneNumber(input.phone_number);
      await limiter.consume('register.contact', `phone:${phoneNumber}`);
      const firstName = cleanName(input.first_name);
      const lastName = cleanName(input.last_name);
      const taxId = cleanTaxId(input.tax_id);
      if (await repository.isAnyContactBlocked(db, { email, phoneNumber })) {
        throw new AppError('contact_blocked');
      }
      await assertContactsFree({ email, phoneNumber });
      const passwordHash = await hasher.hash(input.password);
      const at = now();
      try {
        await runTransaction(db, { name: 'register', log: deps.log }, async (trx) => {
          const user = await repository.insertUser(trx, {
            email,
            phone_number: phoneNumber,
            first_name: firstName,
            last_name: lastName,
            password_hash: passwordHash,
            agree_newsletter: input.agree_newsletter,
            tax_id: taxId,
            locale: input.locale ?? context.locale,
            created_at: at,
            updated_at: at,
          });
          await sendEmailCode(trx, user, at);
          await sendPhoneCode(trx, user, at);
        });
      } catch (error) {
        throw contactConflict(error) ?? error;
      }
      return accountMessage('accountCreated', context.locale);
    },

    async login(username: string, password: string, context: CallContext): Promise<string> {
      const email = normaliseEmail(username);
      await limiter.consume('login.ip', context.ip);
      // Only failures count, so an owner logging in now and then is never limited; they are counted per
      // (account, address), so a guesser elsewhere cannot lock the owner out, and per account only against a
      // much higher ceiling.
      const pair = `${email}|${context.ip}`;
      await limiter.check('login.pair', pair);
      await limiter.check('login.account', email);
      const user = await repository.findLiveUserByEmail(db, email);
      // Unknown e-mail or wrong password: one answer, and the same argon2 work for both.
      if (!(await hasher.verify(user?.password_hash, password)) || !user) {
        await limiter.record('login.pair', pair);
        await limiter.record('login.account', email);
        throw new AppError('invalid_credentials');
      }
      const pending: PendingVerification[] = [
        ...(user.email_verified_at ? [] : (['email'] as const)),
        ...(user.phone_verified_at ? [] : (['phone'] as const)),
      ];
      if (pending.length > 0) throw new AppError('account_not_verified', {}, { pending });
      return tokens.issue({ userId: user.id, tokenVersion: user.token_version });
    },

    /** The live account a bearer token belongs to, or null when the token is not (or no longer) valid. */
    async authenticate(token: string): Promise<UserRow | null> {
      const claims = await tokens.read(token);
      if (!claims || !/^[0-9a-f-]{36}$/i.test(claims.userId)) return null;
      const user = await repository.findLiveUserById(db, claims.userId);
      return user && user.token_version === claims.tokenVersion ? user : null;
    },

    view,

    /** Ends every session of the account issued until now (the token version rises), this one included. */
    async logout(current: UserRow): Promise<void> {
      await repository.bumpTokenVersion(db, current.id, now());
    },

    async updateProfile(current: UserRow, input: ProfileInput): Promise<Schemas['User']> {
      const email = normaliseEmail(input.email);
      const phoneNumber = sanitisePhoneNumber(input.phone_number);
      const firstName = cleanName(input.first_name);
      const lastName = cleanName(input.last_name);
      const taxId = input.tax_id === undefined ? undefined : cleanTaxId(input.tax_id);
      const newPassword = typeof input.password === 'string' ? input.password : null;
      if (newPassword !== null) assertPasswordPolicy(newPassword);
      const emailChanged = email !== current.email;
      const phoneChanged = phoneNumber !== current.phone_number;
      if (
        (emailChanged || phoneChanged) &&
        (await repository.isAnyContactBlocked(db, {
          ...(emailChanged ? { email } : {}),
          ...(phoneChanged ? { phoneNumber } : {}),
        }))
      ) {
        throw new AppError('contact_blocked', {}, {}, { detail: CONTACT_BLOCKED_ON_PROFILE });
      }
      if (emailChanged || phoneChanged) await assertContactsFree({ email, phoneNumber }, current.id);
      const passwordHash = newPassword === null ? null : await hasher.hash(newPassword);
      const at = now();
      try {
        const updated = await runTransaction(db, { name: 'updateProfile', log: deps.log }, async (trx) => {
          const user = await repository.findLiveUserById(trx, current.id, { forUpdate: true });
          if (!user) throw new AppError('unauthorized');
          // A new e-mail address must be proved before it can log in, and a password change signs out
          // everywhere: both end the sessions issued before, this one included.
          const endSessions = emailChanged || passwordHash !== null;
          let saved = await repository.updateUser(trx, user.id, {
            first_name: firstName,
            last_name: lastName,
            agree_newsletter: input.agree_newsletter,
            ...(taxId === undefined ? {} : { tax_id: taxId }),
            ...(input.locale ? { locale: input.locale } : {}),
            ...(emailChanged ? { email, email_verified_at: null } : {}),
            ...(phoneChanged ? { phone_number: phoneNumber, phone_verified_at: null } : {}),
            ...(passwordHash ? { password_hash: passwordHash } : {}),
            ...(endSessions ? { token_version: user.token_version + 1 } : {}),
            updated_at: at,
          });
          if (emailChanged) {
            await repository.retireResetTokens(trx, user.id, at);
            await sendEmailCode(trx, saved, at);
            if (user.email) {
              await queueEmail(trx, {
                to: user.email,
                locale: saved.locale,
                kind: 'email-changed',
                email: emailChangedMessage({
                  locale: saved.locale,
                  brand: config.companyName,
                  firstName: saved.first_name,
                  newEmail: email,
                }),
                now: at,
              });
            }
          }
          if (phoneChanged) await sendPhoneCode(trx, saved, at);
          saved = (await repository.findLiveUserById(trx, user.id)) ?? saved;
          return saved;
        });
        return view(updated);
      } catch (error) {
        throw contactConflict(error) ?? error;
      }
    },

    async confirm(channel: CodeChannel, code: string, context: CallContext) {
      // A confirm call names no account, so wrong codes are counted per caller and across all callers:
      // together they bound how many guesses anyone gets at the few live codes among a million.
      await limiter.check('confirm.ip', context.ip);
      await limiter.check('confirm.global', 'all');
      const at = now();
      const outcome = /^\d{6}$/.test(code)
        ? await runTransaction(db, { name: 'confirmCode', log: deps.log }, async (trx) => {
            const row = await repository.findUnconsumedCode(trx, channel, codeHash(channel, code));
            if (!row) return 'invalid' as const;
            if (row.expires_at.getTime() <= at.getTime()) return 'expired' as const;
            const user = await repository.findLiveUserById(trx, row.user_id, { forUpdate: true });
            const target = channel === 'email' ? user?.email : user?.phone_number;
            if (!user || target !== row.target || !(await repository.consumeCode(trx, row.id, at))) {
              return 'invalid' as const;
            }
            return repository.updateUser(
              trx,
              user.id,
              channel === 'email'
                ? { email_verified_at: at, updated_at: at }
                : { phone_verified_at: at, updated_at: at },
            );
          })
        : ('invalid' as const);
      if (outcome === 'invalid') {
        await limiter.record('confirm.ip', context.ip);
        await limiter.record('confirm.global', 'all');
        throw new AppError('invalid_verification_code');
      }
      if (outcome === 'expired') throw new AppError('verification_code_expired');
      if (channel === 'email') {
        return accountMessage(
          outcome.phone_verified_at ? 'emailVerified' : 'emailVerifiedNowPhone',
          context.locale,
        );
      }
      return accountMessage(
        outcome.email_verified_at ? 'phoneVerified' : 'phoneVerifiedNowEmail',
        context.locale,
      );
    },

    async resendCode(channel: CodeChannel, rawEmail: string, context: CallContext) {
      const email = normaliseEmail(rawEmail);
      await limiter.consume('resend.ip', context.ip);
      await limiter.consume('resend.account', `${channel}:${email}`);
      const at = now();
      // Looked up after the answer, so its time is the same whether or not the account exists.
      deps.afterAnswer(
        `resend-${channel}-code`,
        () =>
          runTransaction(db, { name: 'resendCode', log: deps.log }, async (trx) => {
            const found = await repository.findLiveUserByEmail(trx, email);
            const user = found && (await repository.findLiveUserById(trx, found.id, { forUpdate: true }));
            if (!user) return;
            if (channel === 'email' && !user.email_verified_at) await sendEmailCode(trx, user, at);
            if (channel === 'phone' && !user.phone_verified_at) await sendPhoneCode(trx, user, at);
          }),
        context.answered,
      );
      return accountMessage(channel === 'email' ? 'emailCodeResent' : 'phoneCodeResent', context.locale);
    },

    async forgotPassword(rawEmail: string, context: CallContext) {
      const email = normaliseEmail(rawEmail);
      await limiter.consume('forgot.ip', context.ip);
      await limiter.consume('forgot.account', email);
      const at = now();
      // Looked up after the answer, so its time is the same whether or not the account exists.
      deps.afterAnswer(
        'reset-link',
        async () => {
          const user = await repository.findLiveUserByEmail(db, email);
          if (!user) return;
          const token = randomToken();
          const link = new URL(`${config.publicUrl}/${user.locale}`);
          link.search = new URLSearchParams({ reset_token: token }).toString();
          await runTransaction(db, { name: 'forgotPassword', log: deps.log }, async (trx) => {
            await repository.insertResetToken(trx, {
              userId: user.id,
              tokenHash: sha256(token),
              expiresAt: minutesFrom(at, RESET_LINK_LIFETIME_MINUTES),
              now: at,
            });
            await queueEmail(trx, {
              to: email,
              locale: user.locale,
              kind: 'reset-password',
              email: resetPasswordMessage({
                locale: user.locale,
                brand: config.companyName,
                firstName: user.first_name,
                link: link.toString(),
                minutes: RESET_LINK_LIFETIME_MINUTES,
              }),
              now: at,
            });
          });
        },
        context.answered,
      );
      // The same words whether or not the account exists.
      return accountMessage('resetLinkSent', context.locale);
    },

    async resetPassword(token: string, newPassword: string, context: CallContext) {
      await limiter.check('reset.ip', context.ip);
      assertPasswordPolicy(newPassword);
      const passwordHash = await hasher.hash(newPassword);
      const at = now();
      const done = await runTransaction(db, { name: 'resetPassword', log: deps.log }, async (trx) => {
        const row = await repository.findUsableResetToken(trx, sha256(token), at);
        const user = row && (await repository.findLiveUserById(trx, row.user_id, { forUpdate: true }));
        if (!user) return false;
        await repository.updateUser(trx, user.id, {
          password_hash: passwordHash,
          token_version: user.token_version + 1,
          // The link arrived in the mailbox, which proves the address.
          email_verified_at: user.email_verified_at ?? at,
          updated_at: at,
        });
        await repository.retireResetTokens(trx, user.id, at);
        return true;
      });
      if (!done) {
        await limiter.record('reset.ip', context.ip);
        throw new AppError('invalid_reset_token');
      }
      return accountMessage('passwordReset', context.locale);
    },

    /** `alsoInTransaction`: the console's audit row, written in the deletion's own transaction. */
    async deleteAccount(
      current: UserRow,
      context: CallContext,
      alsoInTransaction?: (trx: Db, at: Date) => Promise<void>,
      erasedBy: AccountEraser | null = null,
    ) {
      const at = now();
      // Run again after a deadlock, the steps' refunds are safe: each is keyed by its booking.
      await runTransaction(db, { name: 'deleteAccount', log: deps.log }, async (trx) => {
        // NO KEY UPDATE: other account changes wait, but the foreign-key checks of a payment, a move or a booking
        // of this member in progress do not. With FOR UPDATE, such a transaction holding one of the member's
        // bookings waited for this lock while the deletion waited for that booking (a deadlock). The
        // anonymisation at the end takes the full lock, once the member's bookings are this transaction's.
        const user = await repository.findLiveUserById(trx, current.id, { forNoKeyUpdate: true });
        if (!user) throw new AppError('unauthorized');
        await deleteMessagesTo(
          trx,
          [user.email, user.phone_number].filter((value): value is string => Boolean(value)),
        );
        // After the erasure of the old messages: the steps' own (the cancellation of upcoming bookings and its
        // refunds) are the last the member is sent, and the outbox delivers them.
        for (const step of deps.beforeErasure ?? []) await step(trx, user, at, erasedBy);
        await repository.deleteCodesAndResetTokens(trx, user.id);
        await repository.anonymiseUser(trx, user.id, at);
        await alsoInTransaction?.(trx, at);
      });
      return accountMessage('accountDeleted', context.locale);
    },
  };
}
