import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { runAdmin } from '../../server/admin/cli.ts';
import { accessCodeMessage } from '../../server/booking/access-code-message.ts';
import type { Locale } from '../../server/kernel/i18n.ts';
import { fixedClock } from '../../server/kernel/clock.ts';
import { JOB_QUEUES } from '../../server/jobs/queue.ts';
import { lisbonSlot } from './bookings-fixtures.ts';
import {
  bookAndPayOverHttp,
  newClient,
  startAccountApp,
  verifiedAccount,
  type AccountApp,
  type ErrorBody,
  type Schemas,
} from './support/accounts.ts';
import { describeOnPglite, emptyAllTables } from './support/databases.ts';
import { createBranch } from './support/fixtures.ts';
import { loggedInOperator } from './support/operators.ts';

// Issue 30, item 1: a branch's arrival kit, set in the console and the CLI, reaches the member with the door
// code: the T-30 e-mail shows it, the SMS links to it, My bookings' code card carries it, in the member's
// language with the Portuguese text where that language has none. What a member reads is written here by hand.

const SUPPORT_PHONE = '+351 210 000 000';
const KIT = {
  entrance_photo_url: '/images/branches/lisboa-entrance.svg',
  wifi_network: 'Gym-Guest',
  wifi_password: 'squat-2026',
  texts: {
    pt: {
      directions: 'Porta azul ao lado do n.º 52.\nO ginásio fica à esquerda.',
      keypad: 'Teclado à direita da porta: marque os 6 dígitos e ✓.',
      rules: 'Sem calçado de rua.',
    },
    en: { directions: 'Blue door next to no. 52 <b>not bold</b>.' },
  },
};

describe('the door-code message’s arrival section in the five languages', () => {
  const message = (locale: Locale, withKit: boolean) =>
    accessCodeMessage(
      {
        locale,
        firstName: 'Ana',
        branch: { name: 'Porto', location: 'Boavista', timeZone: 'Europe/Lisbon' },
        code: '482913',
        validFrom: Temporal.Instant.from('2026-12-03T09:45:00Z'),
        validUntil: Temporal.Instant.from('2026-12-03T11:15:00Z'),
        slots: [
          {
            start: Temporal.Instant.from('2026-12-03T10:00:00Z'),
            end: Temporal.Instant.from('2026-12-03T11:00:00Z'),
          },
        ],
        publicUrl: 'https://gym.example',
        arrival: withKit
          ? {
              directions: 'D',
              keypad: 'K',
              rules: 'R',
              entrance_photo_url: 'https://cdn.example/door.jpg',
              map_url: 'https://maps.example/porto',
              wifi_network: 'Gym',
              wifi_password: 'pw',
              support_phone: '+351 210 000 000',
            }
          : null,
      },
      'Private Gym',
    );
  const expected: Record<Locale, string[]> = {
    pt: [
      'COMO CHEGAR E ENTRAR',
      'A entrada',
      'O teclado e o código',
      'Ver no mapa: https://maps.example/porto',
      'Wi-Fi: Gym, palavra-passe pw',
      'Regras da casa: R',
      'Ajuda: +351 210 000 000',
      'Como entrar: https://gym.example/pt?account_tab=myBookings',
    ],
    en: [
      'GETTING THERE AND GETTING IN',
      'The entrance',
      'The keypad and the code',
      'See it on the map: https://maps.example/porto',
      'Wi-Fi: Gym, password pw',
      'House rules: R',
      'Help: +351 210 000 000',
      'How to get in: https://gym.example/en?account_tab=myBookings',
    ],
    fr: [
      'VENIR ET ENTRER',
      'L’entrée',
      'Le clavier et le code',
      'Voir sur la carte : https://maps.example/porto',
      'Wi-Fi : Gym, mot de passe pw',
      'Règles de la salle : R',
      'Aide : +351 210 000 000',
      'Comment entrer : https://gym.example/fr?account_tab=myBookings',
    ],
    de: [
      'ANFAHRT UND EINLASS',
      'Der Eingang',
      'Das Tastenfeld und der Code',
      'Auf der Karte ansehen: https://maps.example/porto',
      'WLAN: Gym, Passwort pw',
      'Hausregeln: R',
      'Hilfe: +351 210 000 000',
      'So kommen Sie hinein: https://gym.example/de?account_tab=myBookings',
    ],
    sk: [
      'AKO SA DOSTAŤ DNU',
      'Vchod',
      'Klávesnica a kód',
      'Pozrieť na mape: https://maps.example/porto',
      'Wi-Fi: Gym, heslo pw',
      'Pravidlá: R',
      'Pomoc: +351 210 000 000',
      'Ako sa dostať dnu: https://gym.example/sk?account_tab=myBookings',
    ],
  };

  it.each(Object.keys(expected) as Locale[])(
    'words the kit in %s, the SMS linking to My bookings',
    (locale) => {
      const { text, html, sms } = message(locale, true);
      const [title, directions, keypad, map, wifi, rules, help, smsLink] = expected[locale];
      for (const line of [title!, directions!, keypad!, map!, wifi!, rules!, help!])
        expect(text).toContain(line);
      expect(html).toContain('<img src="https://cdn.example/door.jpg"');
      expect(html).toContain(`<a href="https://maps.example/porto">`);
      expect(sms.endsWith(smsLink!)).toBe(true);
      const without = message(locale, false);
      expect(without.text).not.toContain(title!);
      expect(without.sms).not.toContain('account_tab');
    },
  );
});

describe('the arrival kit, from the console to the member (pglite)', () => {
  let started: AccountApp;
  let owner: Awaited<ReturnType<typeof loggedInOperator>>;
  let branchId: number;
  const clock = fixedClock('2026-03-20T10:30:00Z');

  beforeAll(async () => {
    started = await startAccountApp('pglite', { SUPPORT_PHONE }, clock);
    owner = await loggedInOperator(started.app, clock, 'owner@gym.example', 'owner');
  });
  afterAll(() => started?.close());

  beforeEach(async () => {
    clock.set('2026-03-20T10:30:00Z');
    branchId = await createBranch(started.app.db, { name: 'Lisboa – Avenidas Novas' });
  });

  const patchBranch = (body: object) =>
    owner.client.call({
      method: 'PATCH',
      url: `/api/admin/branches/${branchId}`,
      payload: body,
      headers: { authorization: `Bearer ${owner.token}` },
    });

  it('saves the kit from the console, merges texts per language, audits it, and refuses a photo that is no link', async () => {
    const saved = await patchBranch({ arrival: KIT });
    expect(saved.statusCode, saved.body).toBe(200);
    const branch = saved.json<Schemas['AdminBranch']>();
    expect(branch.arrival).toEqual({
      entrance_photo_url: KIT.entrance_photo_url,
      wifi_network: 'Gym-Guest',
      wifi_password: 'squat-2026',
      texts: {
        pt: KIT.texts.pt,
        en: { directions: KIT.texts.en.directions, keypad: '', rules: '' },
        fr: { directions: '', keypad: '', rules: '' },
        de: { directions: '', keypad: '', rules: '' },
        sk: { directions: '', keypad: '', rules: '' },
      },
    });

    // Only the French rules change; the rest of the kit stays.
    const merged = await patchBranch({ arrival: { texts: { fr: { rules: 'Pas de chaussures.' } } } });
    expect(merged.json<Schemas['AdminBranch']>().arrival.texts).toMatchObject({
      pt: KIT.texts.pt,
      fr: { directions: '', keypad: '', rules: 'Pas de chaussures.' },
    });

    const refused = await patchBranch({ arrival: { entrance_photo_url: 'javascript:alert(1)' } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json<ErrorBody>().fields).toEqual([
      { field: 'arrival.entrance_photo_url', problem: 'format' },
    ]);
    const after = await owner.client.get(`/api/admin/branches/${branchId}`, owner.token);
    expect(after.json<Schemas['AdminBranch']>().arrival.entrance_photo_url).toBe(KIT.entrance_photo_url);

    const audit = await started.app.db
      .selectFrom('audit_log')
      .select(['action', 'after'])
      .where('entity_type', '=', 'branch')
      .where('entity_id', '=', String(branchId))
      .orderBy('id')
      .execute();
    expect(audit.map((row) => row.action)).toEqual(['branch.update', 'branch.update']);
    expect(JSON.stringify(audit[1]!.after)).toContain('Pas de chaussures.');
  });

  it('gives the kit with the door code: in the e-mail, a link in the SMS, on My bookings, each in the member’s language', async () => {
    await patchBranch({ arrival: KIT });
    const member = newClient(started.app);
    const account = await verifiedAccount(member, started.app, { locale: 'en' });
    const slot = await lisbonSlot(started.app.db, branchId, '2026-03-30T10:00');
    await bookAndPayOverHttp(member, account.token, slot);
    const myBookings = async () =>
      (await member.get('/api/bookings/my-bookings', account.token, { locale: 'en' })).json<
        Schemas['Booking'][]
      >();

    // Days ahead: no code yet, so no kit either.
    expect((await myBookings())[0]).toMatchObject({ lock_code: null, arrival: null });

    // 30 March, 10:00 in Lisbon is 09:00 UTC: the message is due at 08:30.
    clock.set('2026-03-30T08:30:00Z');
    await started.app.jobs.runDue([JOB_QUEUES.lockSync, JOB_QUEUES.lockCheck, JOB_QUEUES.doorSweep]);
    await started.app.jobs.runDue([JOB_QUEUES.accessCode]);
    const messages = await started.app.db
      .selectFrom('outbox')
      .selectAll()
      .where('kind', '=', 'access_code')
      .orderBy('channel')
      .execute();
    const [email, sms] = messages;
    expect(email!.text_body).toContain(
      [
        'GETTING THERE AND GETTING IN',
        '',
        'The entrance',
        'Blue door next to no. 52 <b>not bold</b>.',
        '',
        // English has no keypad text: the Portuguese one is given.
        'The keypad and the code',
        'Teclado à direita da porta: marque os 6 dígitos e ✓.',
        '',
        'Wi-Fi: Gym-Guest, password squat-2026',
        'House rules: Sem calçado de rua.',
        `Help: ${SUPPORT_PHONE}`,
      ].join('\n'),
    );
    const html = email!.html_body!;
    expect(html).toContain('<h2>Getting there and getting in</h2>');
    expect(html).toContain('Blue door next to no. 52 &lt;b&gt;not bold&lt;/b&gt;.');
    expect(html).not.toContain('<b>not bold</b>');
    expect(html).toContain(
      `<img src="https://gym.example/images/branches/lisboa-entrance.svg" alt="The entrance of Lisboa – Avenidas Novas"`,
    );
    expect(html).toContain('<a href="tel:+351210000000">Help: +351 210 000 000</a>');
    expect(sms!.text_body).toMatch(/^Private Gym: door code \d{6} for Lisboa – Avenidas Novas/);
    expect(sms!.text_body).toContain('How to get in: https://gym.example/en?account_tab=myBookings');

    const [booking] = await myBookings();
    expect(booking!.lock_code).toMatch(/^\d{6}$/);
    expect(booking!.arrival).toEqual({
      directions: 'Blue door next to no. 52 <b>not bold</b>.',
      keypad: 'Teclado à direita da porta: marque os 6 dígitos e ✓.',
      rules: 'Sem calçado de rua.',
      entrance_photo_url: '/images/branches/lisboa-entrance.svg',
      map_url: null,
      wifi_network: 'Gym-Guest',
      wifi_password: 'squat-2026',
      support_phone: SUPPORT_PHONE,
    });

    // The kit emptied (by the operator, whose console session is of the 20th), the map link too: none is left.
    clock.set('2026-03-20T10:31:00Z');
    const emptied = await patchBranch({
      map_url: null,
      arrival: {
        entrance_photo_url: null,
        wifi_network: null,
        texts: { pt: { directions: '', keypad: '', rules: '' }, en: { directions: '' } },
      },
    });
    expect(emptied.statusCode, emptied.body).toBe(200);
    clock.set('2026-03-30T08:31:00Z');
    const [cleared] = await myBookings();
    expect(cleared!.lock_code).toMatch(/^\d{6}$/);
    expect(cleared!.arrival).toBeNull();
  });
});

describeOnPglite('the arrival kit in the CLI', (getDb) => {
  const clock = fixedClock('2026-03-20T10:00:00Z');
  let out: string[];
  let err: string[];

  async function admin(...argv: string[]): Promise<number> {
    out = [];
    err = [];
    return runAdmin(argv, {
      db: getDb(),
      clock,
      horizonDays: 3,
      io: { out: (line) => out.push(line), err: (line) => err.push(line) },
    });
  }

  const arrivalOf = async (branchId: number) =>
    (
      await getDb()
        .selectFrom('branches')
        .select('arrival')
        .where('id', '=', branchId)
        .executeTakeFirstOrThrow()
    ).arrival;

  beforeEach(() => emptyAllTables(getDb()));

  it('sets the kit’s texts per language, the photo and the Wi-Fi, and clears them with none or an empty text', async () => {
    const branchId = await createBranch(getDb());
    const id = String(branchId);
    expect(
      await admin(
        'branch',
        'update',
        id,
        '--arrival',
        'pt.directions=Porta azul.',
        '--arrival',
        'de.rules=Keine Straßenschuhe.',
        '--entrance-photo',
        'https://cdn.example.com/door.jpg',
        '--wifi-network',
        'Gym',
        '--wifi-password',
        'pass-1234',
      ),
      err.join('\n'),
    ).toBe(0);
    expect(await arrivalOf(branchId)).toEqual({
      entrance_photo_url: 'https://cdn.example.com/door.jpg',
      wifi_network: 'Gym',
      wifi_password: 'pass-1234',
      texts: { pt: { directions: 'Porta azul.' }, de: { rules: 'Keine Straßenschuhe.' } },
    });

    expect(await admin('branch', 'update', id, '--arrival', 'de.rules=', '--wifi-password', 'none')).toBe(0);
    expect(await arrivalOf(branchId)).toEqual({
      entrance_photo_url: 'https://cdn.example.com/door.jpg',
      wifi_network: 'Gym',
      wifi_password: null,
      texts: { pt: { directions: 'Porta azul.' } },
    });

    expect(await admin('branch', 'update', id, '--arrival', 'xx.rules=No')).toBe(2);
    expect(err.join('\n')).toContain('must be <locale>.<directions|keypad|rules>=<text>');
    expect(await admin('branch', 'update', id, '--entrance-photo', 'javascript:alert(1)')).not.toBe(0);
    expect(err.join('\n')).toContain('arrival.entrance_photo_url');
    expect((await arrivalOf(branchId)).entrance_photo_url).toBe('https://cdn.example.com/door.jpg');
  });
});
