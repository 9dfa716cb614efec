import type { FastifyReply, FastifyRequest } from 'fastify';
import type { components, operations } from '../../openapi/schema.gen.ts';
import { AppError } from '../errors.ts';
import { resolveLocale } from '../i18n.ts';
import type { UserRow } from './repository.ts';
import type { AuthService, CallContext } from './service.ts';

type Schemas = components['schemas'];
type Path<Operation extends keyof operations> = NonNullable<operations[Operation]['parameters']['path']>;

declare module 'fastify' {
  interface FastifyRequest {
    /** The account of a valid bearer token; set by the bearerAuth security handler. */
    user: UserRow | null;
  }
}

function context(request: FastifyRequest): CallContext {
  return { ip: request.ip, locale: resolveLocale(request.headers.locale) };
}

function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw new AppError('unauthorized');
  return request.user;
}

/** Checks `Authorization: Bearer <jwt>` for the operations the contract marks with bearerAuth. */
export function bearerAuth(auth: AuthService) {
  return async (request: FastifyRequest): Promise<void> => {
    const match = /^Bearer ([A-Za-z0-9._~+/=-]{1,4096})$/i.exec(request.headers.authorization ?? '');
    const user = match?.[1] ? await auth.authenticate(match[1]) : null;
    if (!user) throw new AppError('unauthorized');
    request.user = user;
  };
}

// Answers that carry a token or personal data are never stored by a cache along the way.
function private_(reply: FastifyReply): void {
  reply.header('cache-control', 'no-store');
}

export function authHandlers(auth: AuthService) {
  return {
    validateToken: async (_request: FastifyRequest, reply: FastifyReply) => {
      private_(reply);
      return { valid: true };
    },
    getMe: async (request: FastifyRequest, reply: FastifyReply) => {
      private_(reply);
      return auth.view(currentUser(request));
    },
    updateMe: async (request: FastifyRequest<{ Body: Schemas['ProfileUpdate'] }>, reply: FastifyReply) => {
      private_(reply);
      return auth.updateProfile(currentUser(request), request.body);
    },
    login: async (request: FastifyRequest<{ Body: Schemas['LoginForm'] }>, reply: FastifyReply) => {
      private_(reply);
      const token = await auth.login(request.body.username, request.body.password, context(request));
      return { access_token: token, token_type: 'bearer' };
    },
    register: async (request: FastifyRequest<{ Body: Schemas['RegisterRequest'] }>, reply: FastifyReply) =>
      reply.status(201).send(await auth.register(request.body, context(request))),
    forgotPassword: async (request: FastifyRequest<{ Querystring: { email: string } }>) =>
      auth.forgotPassword(request.query.email, context(request)),
    resetPassword: async (
      request: FastifyRequest<{ Params: Path<'resetPassword'>; Body: Schemas['ResetPasswordRequest'] }>,
    ) => auth.resetPassword(request.params.reset_token, request.body.new_password, context(request)),
    confirmEmail: async (request: FastifyRequest<{ Params: Path<'confirmEmail'> }>) =>
      auth.confirm('email', request.params.code, context(request)),
    confirmPhoneNumber: async (request: FastifyRequest<{ Params: Path<'confirmPhoneNumber'> }>) =>
      auth.confirm('phone', request.params.code, context(request)),
    resendEmailVerification: async (request: FastifyRequest<{ Body: Schemas['EmailRequest'] }>) =>
      auth.resendCode('email', request.body.email, context(request)),
    resendPhoneVerification: async (request: FastifyRequest<{ Body: Schemas['EmailRequest'] }>) =>
      auth.resendCode('phone', request.body.email, context(request)),
    logout: async (request: FastifyRequest, reply: FastifyReply) => {
      await auth.logout(currentUser(request));
      return reply.status(204).send();
    },
    deleteAccount: async (request: FastifyRequest) =>
      auth.deleteAccount(currentUser(request), context(request)),
  };
}
