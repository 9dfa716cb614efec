import type { FastifyRequest } from 'fastify';
import { noStore } from '../http/caching.ts';
import { bearerSecurity, defineHandlers, signedIn } from '../http/operations.ts';
import { localisedMessage } from './messages.ts';
import { ALL_BRANCHES } from './branches.ts';
import { resolveLocale } from '../kernel/i18n.ts';
import {
  actorOf,
  operatorView,
  requireOwner,
  type CallContext,
  type OperatorCaller,
  type OperatorService,
} from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The operator of a valid operator token; set by the operatorAuth security handler. */
    operatorCaller: OperatorCaller | null;
  }
}

/** The operator making the call (operatorAuth ran first). */
export function currentOperator(request: FastifyRequest): OperatorCaller {
  return signedIn(request.operatorCaller);
}

/** Checks `Authorization: Bearer <operator jwt>` for the operations the contract marks with operatorAuth. */
export function operatorAuth(operators: OperatorService) {
  return bearerSecurity('operatorCaller', (token) => operators.authenticate(token));
}

function context(request: FastifyRequest): CallContext {
  const agent = request.headers['user-agent'];
  return { ip: request.ip, userAgent: agent ? agent.slice(0, 500) : null };
}

// Console answers carry personal data and tokens: never stored by a cache along the way (noStore).

export function operatorHandlers(operators: OperatorService) {
  return defineHandlers({
    operatorLogin: async (request, reply) => {
      noStore(reply);
      const { token, expiresAt, operator, branches } = await operators.login(
        {
          email: request.body.email,
          password: request.body.password,
          totpCode: request.body.totp_code,
        },
        context(request),
      );
      return {
        access_token: token,
        token_type: 'bearer' as const,
        expires_at: expiresAt.toISOString(),
        operator: operatorView(operator, branches),
      };
    },
    operatorSetupPassword: async (request) => {
      await operators.setupPassword(request.body.token, request.body.password, context(request));
      return localisedMessage('passwordSet', resolveLocale(request.headers.locale));
    },
    operatorLogout: async (request, reply) => {
      await operators.logout(currentOperator(request));
      return reply.status(204).send();
    },
    getOperatorMe: async (request, reply) => {
      noStore(reply);
      const { operator, branches } = currentOperator(request);
      return operatorView(operator, branches);
    },
    listOperatorSessions: async (request, reply) => {
      noStore(reply);
      return operators.listSessions(currentOperator(request));
    },
    endOperatorSession: async (request, reply) => {
      await operators.endSession(currentOperator(request), request.params.session_id);
      return reply.status(204).send();
    },
    listOperators: async (request, reply) => {
      noStore(reply);
      requireOwner(currentOperator(request).operator);
      return (await operators.listOperators()).map((row) => operatorView(row.operator, row.branches));
    },
    createOperator: async (request, reply) => {
      noStore(reply);
      const { operator } = currentOperator(request);
      requireOwner(operator);
      const created = await operators.createOperator(actorOf(operator), request.body);
      return reply.status(201).send({
        operator: operatorView(created.operator, ALL_BRANCHES),
        setup_url: created.setupUrl,
        setup_expires_at: created.setupExpiresAt.toISOString(),
        totp_uri: created.totpUri,
      });
    },
    setOperatorBranches: async (request, reply) => {
      noStore(reply);
      const { operator } = currentOperator(request);
      requireOwner(operator);
      const changed = await operators.setOperatorBranches(
        actorOf(operator),
        request.params.operator_id,
        request.body.branch_ids,
      );
      return operatorView(changed.operator, changed.branches);
    },
    removeOperator: async (request, reply) => {
      const { operator } = currentOperator(request);
      requireOwner(operator);
      await operators.removeOperator(actorOf(operator), request.params.operator_id);
      return reply.status(204).send();
    },
  });
}
