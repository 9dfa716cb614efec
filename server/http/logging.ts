import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';

// Secrets that the contract puts in paths and queries (reset tokens, verification codes, e-mails)
// must never reach the logs.
const secretPathSegments = /(\/(?:reset-password|confirm-email|confirm-phone-number)\/)[^/?#]+/g;
const secretQueryValues = /([?&](?:email|reset_token|verify_email|verify_email_code|to)=)[^&#]*/gi;

function maskUrl(url: string): string {
  return url.replace(secretPathSegments, '$1[redacted]').replace(secretQueryValues, '$1[redacted]');
}

export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.env === 'test' ? 'silent' : config.logLevel,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["stripe-signature"]'],
      censor: '[redacted]',
    },
    serializers: {
      req: (request: { method: string; url: string; ip?: string; id?: string }) => ({
        method: request.method,
        url: maskUrl(request.url),
        ip: request.ip,
        id: request.id,
      }),
    },
  };
}
