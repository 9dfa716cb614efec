import type { FastifyReply, FastifyRequest } from 'fastify';
import { noStore } from '../http/caching.ts';
import { bearerSecurity, defineHandlers, signedIn } from '../http/operations.ts';
import { resolveLocale } from '../kernel/i18n.ts';
import type { UserRow } from './repository.ts';
import type { AuthService, CallContext } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The account of a valid bearer token; set by the bearerAuth security handler. */
    user: UserRow | null;
  }
}

function context(request: FastifyRequest): CallContext {
  return { ip: request.ip, locale: resolveLocale(request.headers.locale) };
}

/** `context`, with the moment the answer has been sent (or the connection closed) for work done after it. */
function contextAnswered(request: FastifyRequest, reply: FastifyReply): CallContext {
  const answered = new Promise<void>((resolve) => {
    reply.raw.once('finish', resolve);
    reply.raw.once('close', resolve);
  });
  return { ...context(request), answered };
}

/** The client making the call (bearerAuth ran first). */
export function currentUser(request: FastifyRequest): UserRow {
  return signedIn(request.user);
}

/** Checks `Authorization: Bearer <jwt>` for the operations the contract marks with bearerAuth. */
export function bearerAuth(auth: AuthService) {
  return bearerSecurity('user', (token) => auth.authenticate(token));
}

// Answers that carry a token or personal data are never stored by a cache along the way (noStore).

export function authHandlers(auth: AuthService) {
  return defineHandlers({
    validateToken: async (_request, reply) => {
      noStore(reply);
      return { valid: true as const };
    },
    getMe: async (request, reply) => {
      noStore(reply);
      return auth.view(currentUser(request));
    },
    updateMe: async (request, reply) => {
      noStore(reply);
      return auth.updateProfile(currentUser(request), request.body);
    },
    login: async (request, reply) => {
      noStore(reply);
      const token = await auth.login(request.body.username, request.body.password, context(request));
      return { access_token: token, token_type: 'bearer' };
    },
    register: async (request, reply) =>
      reply.status(201).send(await auth.register(request.body, context(request))),
    forgotPassword: async (request, reply) =>
      auth.forgotPassword(request.query.email, contextAnswered(request, reply)),
    resetPassword: async (request) =>
      auth.resetPassword(request.params.reset_token, request.body.new_password, context(request)),
    confirmEmail: async (request) => auth.confirm('email', request.params.code, context(request)),
    confirmPhoneNumber: async (request) => auth.confirm('phone', request.params.code, context(request)),
    resendEmailVerification: async (request, reply) =>
      auth.resendCode('email', request.body.email, contextAnswered(request, reply)),
    resendPhoneVerification: async (request, reply) =>
      auth.resendCode('phone', request.body.email, contextAnswered(request, reply)),
    logout: async (request, reply) => {
      await auth.logout(currentUser(request));
      return reply.status(204).send();
    },
    deleteAccount: async (request) => auth.deleteAccount(currentUser(request), context(request)),
  });
}
