import { PermanentDeliveryError } from '../delivery.ts';
import type { SmsProvider } from './provider.ts';

export type TwilioOptions = {
  accountSid: string;
  authToken: string;
  /** A Twilio phone number in E.164 (`+351...`), an alphanumeric sender ID, or a Messaging Service SID (`MG...`). */
  from: string;
  /** Only tests point this elsewhere. */
  baseUrl?: string;
  timeoutMs?: number;
};

/** SMS through Twilio's Messages REST API: one form POST per message, authenticated with the account's key. */
export function createTwilioSmsProvider(options: TwilioOptions): SmsProvider {
  const baseUrl = (options.baseUrl ?? 'https://api.twilio.com').replace(/\/+$/, '');
  const url = `${baseUrl}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;
  return {
    name: 'twilio',
    send: async (sms) => {
      const form = new URLSearchParams({ To: sms.to, Body: sms.text });
      form.set(options.from.startsWith('MG') ? 'MessagingServiceSid' : 'From', options.from);
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          authorization,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: form,
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      if (response.ok) return 'sent';
      const body = (await response.json().catch(() => ({}))) as { code?: number; message?: string };
      const reason = `Twilio answered ${response.status}${body.code ? ` (error ${body.code})` : ''}`;
      // 4xx other than 429 is about this message or this account (an invalid number, a bad sender): final.
      if (response.status >= 400 && response.status < 500 && response.status !== 429) {
        throw new PermanentDeliveryError(reason);
      }
      throw new Error(reason);
    },
  };
}
