import { randomUUID } from 'node:crypto';
import { recordAudit, type Actor } from '../kernel/audit.ts';
import {
  assertPasswordPolicy,
  type PasswordHasher,
  type RateLimiter,
  randomToken,
  sha256,
  normaliseEmail,
} from '../accounts/index.ts';
import { dateFromInstant, type Clock } from '../kernel/clock.ts';
import type { Db } from '../db/database.ts';
import { inTransaction } from '../kernel/transactions.ts';
import type { LocaleCode, OperatorRole } from '../db/schema.ts';
import { AppError } from '../kernel/errors.ts';
import type { components } from '../../openapi/schema.gen.ts';
import * as repository from './repository.ts';
import { OPERATOR_SESSION_HOURS, type OperatorTokens } from './tokens.ts';
import { matchTotpStep, newTotpSecret, totpUri } from './totp.ts';
import { ALL_BRANCHES, branchIdsView, branchScopeOf, type BranchScope } from './branches.ts';
import { setOperatorBranches } from './use-cases/set-operator-branches.ts';

type Schemas = components['schemas'];

/** A setup link works this long. */
export const SETUP_LINK_HOURS = 72;

export type OperatorRow = repository.OperatorRow;
/** The operator making a call, the session it came with, and the branches they see and act on. */
export type OperatorCaller = { operator: OperatorRow; sessionId: string; branches: BranchScope };
export type CallContext = { ip: string; userAgent: string | null };

export function actorOf(operator: OperatorRow): Actor {
  return { operatorId: operator.id, email: operator.email };
}

/** Owners only: staff get 403 `operator_forbidden`. */
export function requireOwner(operator: OperatorRow): void {
  if (operator.role !== 'owner') throw new AppError('operator_forbidden');
}

/** The operator's branches as read now (every branch for owners and for staff nobody limited). */
async function branchScopeNow(db: Db, operator: OperatorRow): Promise<BranchScope> {
  if (operator.role === 'owner') return ALL_BRANCHES;
  return branchScopeOf(
    operator,
    (await repository.branchesOfOperators(db, [operator.id])).get(operator.id) ?? [],
  );
}

export function operatorView(operator: OperatorRow, branches: BranchScope): Schemas['Operator'] {
  return {
    id: operator.id,
    branch_ids: branchIdsView(branches),
    email: operator.email,
    role: operator.role,
    password_set: operator.password_hash !== null,
    created_at: operator.created_at.toISOString(),
  };
}

export type CreatedOperator = {
  operator: OperatorRow;
  setupUrl: string;
  setupExpiresAt: Date;
  totpUri: string;
};

/**
 * Operator accounts: adding (with a setup link and a TOTP secret), listing and removing. The CLI's `operator`
 * commands and the console's handlers both call these.
 */
export function createOperatorAccounts(deps: {
  db: Db;
  clock: Clock;
  publicUrl: string;
  defaultLocale: LocaleCode;
}) {
  const { db, clock } = deps;
  const now = () => dateFromInstant(clock.now());
  async function issueSetupLink(trx: Db, operator: OperatorRow, at: Date) {
    const token = randomToken();
    const expiresAt = new Date(at.getTime() + SETUP_LINK_HOURS * 3_600_000);
    await repository.retireSetupTokens(trx, operator.id, at);
    await repository.insertSetupToken(trx, {
      operator_id: operator.id,
      token_hash: sha256(token),
      expires_at: expiresAt,
    });
    return {
      setupUrl: `${deps.publicUrl}/${operator.locale}/admin?setup=${token}`,
      setupExpiresAt: expiresAt,
    };
  }

  return {
    /**
     * Adds an operator with a fresh TOTP secret and a one-time password-setup link (the CLI's `operator add`
     * and the console's createOperator). The secret is answered once, as an otpauth:// URI.
     */
    async createOperator(
      actor: Actor,
      input: { email: string; role: OperatorRole; locale?: LocaleCode },
    ): Promise<CreatedOperator> {
      const email = normaliseEmail(input.email);
      const at = now();
      return inTransaction(db, async (trx) => {
        if (await repository.findLiveOperatorByEmail(trx, email)) throw new AppError('operator_exists');
        const secret = newTotpSecret();
        let operator: OperatorRow;
        try {
          operator = await repository.insertOperator(trx, {
            email,
            role: input.role,
            totp_secret: secret,
            locale: input.locale ?? deps.defaultLocale,
            created_at: at,
          });
        } catch (error) {
          // Two adds of one e-mail at once: the unique index decides, the second hears what the first did.
          if ((error as { code?: string }).code === '23505') throw new AppError('operator_exists');
          throw error;
        }
        const link = await issueSetupLink(trx, operator, at);
        await recordAudit(
          trx,
          actor,
          {
            action: 'operator.create',
            entityType: 'operator',
            entityId: operator.id,
            after: { email, role: input.role },
          },
          at,
        );
        return { operator, ...link, totpUri: totpUri(secret, email) };
      });
    },

    /** Every live operator with the branches each has. */
    async listOperators(): Promise<{ operator: OperatorRow; branches: BranchScope }[]> {
      const operators = await repository.listLiveOperators(db);
      const limited = await repository.branchesOfOperators(
        db,
        operators.map((operator) => operator.id),
      );
      return operators.map((operator) => ({
        operator,
        branches: branchScopeOf(operator, limited.get(operator.id) ?? []),
      }));
    },

    /** Limits a staff member to some branches, or gives every branch again (null). Audited. */
    async setOperatorBranches(
      actor: Actor,
      operatorId: number,
      branchIds: readonly number[] | null,
    ): Promise<{ operator: OperatorRow; branches: BranchScope }> {
      return inTransaction(db, async (trx) => {
        const branches = await setOperatorBranches(trx, { clock }, { actor, operatorId, branchIds });
        const operator = await repository.findLiveOperator(trx, operatorId);
        return { operator: operator!, branches };
      });
    },

    async findOperatorByEmail(email: string): Promise<OperatorRow | undefined> {
      return repository.findLiveOperatorByEmail(db, normaliseEmail(email));
    },

    /** Removes an operator and ends their sessions; the last owner stays (409 `last_owner`). */
    async removeOperator(actor: Actor, operatorId: number): Promise<void> {
      const at = now();
      await inTransaction(db, async (trx) => {
        const owners = await repository.lockLiveOwners(trx);
        const operator = await repository.findLiveOperator(trx, operatorId, { lock: true });
        if (!operator) throw new AppError('operator_not_found');
        if (operator.role === 'owner' && owners.length <= 1) throw new AppError('last_owner');
        await repository.markOperatorRemoved(trx, operator.id, at);
        await repository.endSessionsOf(trx, operator.id, actor.operatorId, at);
        await recordAudit(
          trx,
          actor,
          {
            action: 'operator.remove',
            entityType: 'operator',
            entityId: operator.id,
            before: { email: operator.email, role: operator.role },
          },
          at,
        );
      });
    },
  };
}

export type OperatorAccounts = ReturnType<typeof createOperatorAccounts>;

export function createOperatorService(
  deps: Parameters<typeof createOperatorAccounts>[0] & {
    hasher: PasswordHasher;
    tokens: OperatorTokens;
    limiter: RateLimiter;
  },
) {
  const { db, clock } = deps;
  const now = () => dateFromInstant(clock.now());
  const accounts = createOperatorAccounts(deps);

  return {
    ...accounts,

    /** Sets the password from a one-time link; the link is spent whether or not others are pending. */
    async setupPassword(token: string, password: string, context: CallContext): Promise<void> {
      await deps.limiter.check('reset.ip', `operator-setup:${context.ip}`);
      assertPasswordPolicy(password);
      const passwordHash = await deps.hasher.hash(password);
      const at = now();
      const done = await inTransaction(db, async (trx) => {
        const operatorId = await repository.consumeSetupToken(trx, sha256(token), at);
        if (operatorId === undefined) return false;
        const operator = await repository.findLiveOperator(trx, operatorId, { lock: true });
        if (!operator) return false;
        await repository.setOperatorPassword(trx, operator.id, passwordHash);
        await repository.retireSetupTokens(trx, operator.id, at);
        // A new password ends the sessions an old one opened.
        await repository.endSessionsOf(trx, operator.id, operator.id, at);
        await recordAudit(
          trx,
          actorOf(operator),
          { action: 'operator.set_password', entityType: 'operator', entityId: operator.id },
          at,
        );
        return true;
      });
      if (!done) {
        await deps.limiter.record('reset.ip', `operator-setup:${context.ip}`);
        throw new AppError('invalid_setup_token');
      }
    },

    /**
     * E-mail, password and TOTP code. Throttled like member login, in buckets of their own. Any wrong part is
     * `invalid_credentials` after the same argon2 work; a code of a step already used (or older than the last
     * one used) is `totp_code_reused`. The step is recorded under the operator's row lock, so two logins with
     * one code cannot both pass.
     */
    async login(
      input: { email: string; password: string; totpCode: string },
      context: CallContext,
    ): Promise<{ token: string; expiresAt: Date; operator: OperatorRow; branches: BranchScope }> {
      const email = normaliseEmail(input.email);
      await deps.limiter.consume('login.ip', `operator:${context.ip}`);
      const pair = `operator:${email}|${context.ip}`;
      await deps.limiter.check('login.pair', pair);
      await deps.limiter.check('login.account', `operator:${email}`);
      const fail = async (code: 'invalid_credentials' | 'totp_code_reused') => {
        await deps.limiter.record('login.pair', pair);
        await deps.limiter.record('login.account', `operator:${email}`);
        return new AppError(code);
      };
      const found = await repository.findLiveOperatorByEmail(db, email);
      const passwordOk = await deps.hasher.verify(found?.password_hash, input.password);
      const nowMs = clock.now().epochMilliseconds;
      const step = found ? matchTotpStep(found.totp_secret, input.totpCode, nowMs) : null;
      if (!found || !passwordOk || step === null) throw await fail('invalid_credentials');
      const at = now();
      const expiresAt = new Date(at.getTime() + OPERATOR_SESSION_HOURS * 3_600_000);
      const sessionId = randomUUID();
      const outcome = await inTransaction(db, async (trx) => {
        const operator = await repository.findLiveOperator(trx, found.id, { lock: true });
        if (!operator) return 'gone' as const;
        const latest = await repository.latestTotpStep(trx, operator.id);
        if (latest !== null && step <= latest) return 'reused' as const;
        if (!(await repository.useTotpStep(trx, operator.id, step, at))) return 'reused' as const;
        await repository.insertSession(trx, {
          id: sessionId,
          operator_id: operator.id,
          created_at: at,
          expires_at: expiresAt,
          ip: context.ip,
          user_agent: context.userAgent,
        });
        return operator;
      });
      if (outcome === 'gone') throw await fail('invalid_credentials');
      if (outcome === 'reused') throw await fail('totp_code_reused');
      const token = await deps.tokens.issue({ operatorId: outcome.id, sessionId }, expiresAt);
      return { token, expiresAt, operator: outcome, branches: await branchScopeNow(db, outcome) };
    },

    /** The live operator and session of a token, or null (member tokens, ended or expired sessions). */
    async authenticate(token: string): Promise<OperatorCaller | null> {
      const claims = await deps.tokens.read(token);
      if (!claims || !/^[0-9a-f-]{36}$/i.test(claims.sessionId)) return null;
      const session = await repository.findLiveSession(db, claims.sessionId, now());
      if (!session || session.operator_id !== claims.operatorId) return null;
      const operator = await repository.findLiveOperator(db, claims.operatorId);
      return operator
        ? { operator, sessionId: session.id, branches: await branchScopeNow(db, operator) }
        : null;
    },

    async logout(caller: OperatorCaller): Promise<void> {
      await repository.endSession(db, caller.sessionId, caller.operator.id, now());
    },

    /** An owner sees every live session, staff their own. */
    async listSessions(caller: OperatorCaller): Promise<Schemas['OperatorSession'][]> {
      const rows = await repository.listLiveSessions(
        db,
        now(),
        caller.operator.role === 'owner' ? undefined : caller.operator.id,
      );
      return rows.map((row) => ({
        id: row.id,
        operator_id: row.operator_id,
        operator_email: row.operator_email,
        created_at: row.created_at.toISOString(),
        expires_at: row.expires_at.toISOString(),
        ip: row.ip,
        user_agent: row.user_agent,
        current: row.id === caller.sessionId,
      }));
    },

    /** Ends a session: one's own, or anyone's for an owner. Audited. */
    async endSession(caller: OperatorCaller, sessionId: string): Promise<void> {
      const at = now();
      await inTransaction(db, async (trx) => {
        const session = await repository.findLiveSession(trx, sessionId, at);
        if (!session) throw new AppError('session_not_found');
        if (session.operator_id !== caller.operator.id) requireOwner(caller.operator);
        if (!(await repository.endSession(trx, sessionId, caller.operator.id, at))) {
          throw new AppError('session_not_found');
        }
        await recordAudit(
          trx,
          actorOf(caller.operator),
          {
            action: 'session.end',
            entityType: 'operator_session',
            entityId: sessionId,
            before: { operator_id: session.operator_id },
          },
          at,
        );
      });
    },
  };
}

export type OperatorService = ReturnType<typeof createOperatorService>;
