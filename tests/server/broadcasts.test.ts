import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markFailed } from '../../server/notifications/repository.ts';
import { DATABASE_TARGETS } from './support/databases.ts';
import {
  bookAndPayOverHttp,
  createBookingOverHttp,
  newClient,
  startAccountApp,
  verifiedAccount,
  type AccountApp,
  type ErrorBody,
  type Schemas,
} from './support/accounts.ts';
import { createBranch, insertSlot } from './support/fixtures.ts';
import { loggedInOperator, runCli } from './support/operators.ts';

// Talking to members (issue 32, item 3) over HTTP, on both storage targets: a broadcast reaches each member with a
// confirmed booking in the branch's period once per channel, in their language (pt where the operator wrote none),
// exactly once however often the request comes; its delivery is read back from the outbox; notes on a member are
// the operators' own.

let counter = 0;
const unique = (role: string) => `${role}-${Date.now()}-${(counter += 1)}@gym.example`;

describe.each(DATABASE_TARGETS)('talking to members on %s', (target) => {
  let server: AccountApp;
  let owner: Awaited<ReturnType<typeof loggedInOperator>>;
  let staff: Awaited<ReturnType<typeof loggedInOperator>>;
  let branchId: number;
  let otherBranchId: number;

  async function slot(branch: number, start: string, end: string) {
    return insertSlot(server.app.db, { branchId: branch, start, end, localDate: start.slice(0, 10) });
  }
  async function member(locale: Schemas['LocaleCode']) {
    return verifiedAccount(newClient(server.app), server.app, { locale });
  }
  const outboxOf = (broadcastId: number) =>
    server.app.db
      .selectFrom('outbox')
      .select(['channel', 'recipient', 'locale', 'subject', 'text_body', 'html_body', 'status'])
      .where('dedupe_key', 'like', `broadcast:${broadcastId}:%`)
      .orderBy('recipient')
      .orderBy('channel')
      .execute();

  beforeAll(async () => {
    server = await startAccountApp(target);
    owner = await loggedInOperator(server.app, server.clock, unique('owner'), 'owner');
    server.clock.advance({ seconds: 30 });
    staff = await loggedInOperator(server.app, server.clock, unique('staff'), 'staff');
    branchId = await createBranch(server.app.db);
    otherBranchId = await createBranch(server.app.db);
  });
  afterAll(async () => server?.close());

  it('sends one message per member per channel, each in its language, exactly once however often the request comes', async () => {
    const caller = newClient(server.app);
    // A French member booked twice in the evening, a German one (no German text: gets pt), a
    // Portuguese one whose booking is only held (not paid), one booked after the period, one at another branch.
    const french = await member('fr');
    await bookAndPayOverHttp(
      caller,
      french.token,
      await slot(branchId, '2026-03-26T18:00:00Z', '2026-03-26T19:00:00Z'),
    );
    await bookAndPayOverHttp(
      caller,
      french.token,
      await slot(branchId, '2026-03-26T19:00:00Z', '2026-03-26T20:00:00Z'),
    );
    const german = await member('de');
    await bookAndPayOverHttp(
      caller,
      german.token,
      await slot(branchId, '2026-03-26T20:00:00Z', '2026-03-26T21:00:00Z'),
    );
    const holding = await member('pt');
    await createBookingOverHttp(
      caller,
      holding.token,
      [await slot(branchId, '2026-03-26T17:00:00Z', '2026-03-26T18:00:00Z')],
      15,
    );
    const later = await member('pt');
    await bookAndPayOverHttp(
      caller,
      later.token,
      await slot(branchId, '2026-03-26T22:00:00Z', '2026-03-26T23:00:00Z'),
    );
    const elsewhere = await member('pt');
    await bookAndPayOverHttp(
      caller,
      elsewhere.token,
      await slot(otherBranchId, '2026-03-26T18:00:00Z', '2026-03-26T19:00:00Z'),
    );

    const audience = {
      branch_id: branchId,
      starts_at: '2026-03-26T17:00:00Z',
      ends_at: '2026-03-26T22:00:00Z',
    };
    const preview = await staff.client.json('POST', '/api/admin/broadcasts/preview', audience, staff.token);
    expect(preview.statusCode).toBe(200);
    expect(preview.json<Schemas['BroadcastPreview']>()).toEqual({
      members: 2,
      by_email: 2,
      by_sms: 2,
      languages: [
        { locale: 'fr', members: 1 },
        { locale: 'de', members: 1 },
      ],
    });

    const request = {
      ...audience,
      idempotency_key: randomUUID(),
      channels: ['email', 'sms'],
      texts: {
        pt: { subject: 'Ar condicionado avariado', body: 'O ar condicionado está avariado esta noite.' },
        fr: { subject: 'Climatisation en panne', body: 'La climatisation est en panne ce soir.\n\nDésolés.' },
      },
    };
    // Staff may broadcast; the same press twice at once, then once more later, sends once.
    const answers = await Promise.all([
      staff.client.json('POST', '/api/admin/broadcasts', request, staff.token),
      staff.client.json('POST', '/api/admin/broadcasts', request, staff.token),
    ]);
    const again = await owner.client.json('POST', '/api/admin/broadcasts', request, owner.token);
    for (const answer of [...answers, again]) expect(answer.statusCode, answer.body).toBe(201);
    const broadcast = again.json<Schemas['BroadcastDetail']>();
    expect(answers.map((answer) => answer.json<Schemas['BroadcastDetail']>().id)).toEqual([
      broadcast.id,
      broadcast.id,
    ]);
    expect(await server.app.db.selectFrom('broadcasts').select('id').execute()).toHaveLength(1);
    expect(broadcast).toMatchObject({
      recipients: 2,
      channels: ['email', 'sms'],
      subject: 'Ar condicionado avariado',
      created_by: staff.email,
      counts: { queued: 4, sent: 0, failed: 0 },
    });

    const messages = await outboxOf(broadcast.id);
    expect(messages.map((message) => [message.channel, message.recipient, message.locale])).toEqual(
      [
        ['email', french.email.toLowerCase(), 'fr'],
        ['sms', french.phone_number.replace(/\s+/g, ''), 'fr'],
        ['email', german.email.toLowerCase(), 'pt'],
        ['sms', german.phone_number.replace(/\s+/g, ''), 'pt'],
      ].sort((a, b) => a[1]!.localeCompare(b[1]!) || a[0]!.localeCompare(b[0]!)),
    );
    const frenchMail = messages.find((message) => message.recipient === french.email.toLowerCase())!;
    expect(frenchMail.subject).toBe('Climatisation en panne');
    expect(frenchMail.text_body).toContain('La climatisation est en panne ce soir.\n\nDésolés.');
    expect(frenchMail.html_body).toContain('<p>La climatisation est en panne ce soir.</p>');
    expect(
      messages.find((message) => message.recipient === french.phone_number.replace(/\s+/g, ''))!.text_body,
    ).toBe('La climatisation est en panne ce soir.\n\nDésolés.');
    const germanMail = messages.find((message) => message.recipient === german.email.toLowerCase())!;
    expect(germanMail.subject).toBe('Ar condicionado avariado');
    expect(germanMail.text_body).toContain('O ar condicionado está avariado esta noite.');
    expect(germanMail.text_body).toContain('Recebe esta mensagem porque tem uma reserva em');

    const audit = await server.app.db
      .selectFrom('audit_log')
      .select(['operator_email', 'after'])
      .where('action', '=', 'broadcast.send')
      .where('entity_id', '=', String(broadcast.id))
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.operator_email).toBe(staff.email);
    expect(audit[0]!.after).toMatchObject({
      recipients: 2,
      languages: ['pt', 'fr'],
      channels: ['email', 'sms'],
    });

    // Delivered (printed to the log here: no provider), and one the worker gave up on, with its error.
    await server.app.outboxWorker.runOnce();
    const failed = await server.app.db
      .selectFrom('outbox')
      .select('id')
      .where('dedupe_key', '=', `broadcast:${broadcast.id}:${broadcast.deliveries[0]!.member.id}:email`)
      .executeTakeFirstOrThrow();
    await server.app.db
      .updateTable('outbox')
      .set({ status: 'pending' })
      .where('id', '=', failed.id)
      .execute();
    await markFailed(server.app.db, failed.id, 'mailbox unavailable');
    const detail = (await owner.client.get(`/api/admin/broadcasts/${broadcast.id}`, owner.token)).json<
      Schemas['BroadcastDetail']
    >();
    expect(detail.counts).toEqual({ queued: 0, sent: 3, failed: 1 });
    expect(detail.deliveries).toHaveLength(4);
    expect(detail.deliveries.find((delivery) => delivery.status === 'failed')).toMatchObject({
      channel: 'email',
      error: 'mailbox unavailable',
    });
    expect(detail.deliveries.filter((delivery) => delivery.status === 'logged')).toHaveLength(3);
    expect(detail.texts.fr?.subject).toBe('Climatisation en panne');
    const list = (await staff.client.get('/api/admin/broadcasts', staff.token)).json<
      Schemas['Broadcast'][]
    >();
    expect(list.map((item) => [item.id, item.counts])).toEqual([[broadcast.id, detail.counts]]);
  });

  it('refuses a period that ends before it starts, an unknown branch, a text without pt, and a broadcast that does not exist', async () => {
    const base = {
      idempotency_key: randomUUID(),
      branch_id: branchId,
      starts_at: '2026-03-27T18:00:00Z',
      ends_at: '2026-03-27T17:00:00Z',
      channels: ['email'],
      texts: { pt: { subject: 'Aviso', body: 'Texto' } },
    };
    const send = (body: object) => owner.client.json('POST', '/api/admin/broadcasts', body, owner.token);
    expect((await send(base)).json<ErrorBody>().code).toBe('invalid_period');
    const period = { starts_at: '2026-03-27T17:00:00Z', ends_at: '2026-03-27T18:00:00Z' };
    expect((await send({ ...base, ...period, branch_id: 999_999 })).json<ErrorBody>().code).toBe(
      'branch_not_found',
    );
    const withoutPt = await send({ ...base, ...period, texts: { en: { subject: 'Notice', body: 'Text' } } });
    expect(withoutPt.statusCode).toBe(422);
    const blank = await send({ ...base, ...period, texts: { pt: { subject: ' ', body: 'Texto' } } });
    expect(blank.statusCode).toBe(422);
    const noChannel = await send({ ...base, ...period, channels: [] });
    expect(noChannel.statusCode).toBe(422);
    const missing = await owner.client.get('/api/admin/broadcasts/999999', owner.token);
    expect(missing.statusCode).toBe(404);
    expect(missing.json<ErrorBody>().code).toBe('broadcast_not_found');
    expect(
      await server.app.db
        .selectFrom('broadcasts')
        .select('id')
        .where('starts_at', '>=', new Date('2026-03-27'))
        .execute(),
    ).toEqual([]);
  });

  it('keeps notes on a member for operators, newest first with their author, audited and in the member’s export', async () => {
    const noted = await member('pt');
    const { id: memberId } = await server.app.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', noted.email.toLowerCase())
      .executeTakeFirstOrThrow();
    const url = `/api/admin/members/${memberId}/notes`;
    const first = await staff.client.json('POST', url, { body: 'Deixou a porta aberta.' }, staff.token);
    expect(first.statusCode).toBe(201);
    server.clock.advance({ minutes: 5 });
    const second = await owner.client.json(
      'POST',
      url,
      { body: 'Bloqueado: pagamento contestado.' },
      owner.token,
    );
    expect(second.statusCode).toBe(201);
    const notes = (await staff.client.get(url, staff.token)).json<Schemas['MemberNote'][]>();
    expect(notes.map((note) => [note.body, note.created_by])).toEqual([
      ['Bloqueado: pagamento contestado.', owner.email],
      ['Deixou a porta aberta.', staff.email],
    ]);
    const audit = await server.app.db
      .selectFrom('audit_log')
      .select('operator_email')
      .where('action', '=', 'member.note')
      .where('entity_id', '=', memberId)
      .execute();
    expect(audit.map((row) => row.operator_email).sort()).toEqual([owner.email, staff.email].sort());
    // A blank note is refused; a member's own token reads nothing of them.
    expect((await staff.client.json('POST', url, { body: '   ' }, staff.token)).statusCode).toBe(422);
    expect((await newClient(server.app).get(url, noted.token)).statusCode).toBe(401);
    const unknown = await staff.client.json(
      'POST',
      '/api/admin/members/00000000-0000-4000-8000-000000000000/notes',
      { body: 'x' },
      staff.token,
    );
    expect(unknown.json<ErrorBody>().code).toBe('member_not_found');

    // The back office writes and reads the same notes, through the same use case, audited as the CLI.
    server.clock.advance({ minutes: 5 });
    const cli = (...argv: string[]) => runCli(server.app, server.clock, argv);
    const written = await cli('note', 'add', noted.email.toUpperCase(), '  Chamada: pediu fatura.  ');
    expect(written.err).toEqual([]);
    expect(written.out[0]).toMatch(/^note \d+ written on /);
    const listed = await cli('note', 'list', noted.email, '--json');
    expect(
      (JSON.parse(listed.out.join('\n')) as { by: string; note: string }[]).map((row) => [row.note, row.by]),
    ).toEqual([
      ['Chamada: pediu fatura.', expect.stringMatching(/^cli:/)],
      ['Bloqueado: pagamento contestado.', owner.email],
      ['Deixou a porta aberta.', staff.email],
    ]);
    const blank = await cli('note', 'add', noted.email, '   ');
    expect(blank.code).toBe(2);
    expect(blank.err[0]).toContain('the note is empty');
    const stranger = await cli('note', 'add', 'nobody@example.com', 'x');
    expect(stranger.code).toBe(2);
    expect(stranger.err[0]).toContain('there is no account with the e-mail nobody@example.com');
    expect(
      await server.app.db
        .selectFrom('audit_log')
        .select('operator_email')
        .where('action', '=', 'member.note')
        .where('operator_email', 'like', 'cli:%')
        .execute(),
    ).toHaveLength(1);

    const exported = (await owner.client.get(`/api/admin/members/${memberId}/export`, owner.token)).json<
      Schemas['MemberExport']
    >();
    expect(exported.notes.map((note) => note.body)).toEqual([
      'Deixou a porta aberta.',
      'Bloqueado: pagamento contestado.',
      'Chamada: pediu fatura.',
    ]);

    // Erasing the member erases the notes on them.
    const erased = await owner.client.json(
      'POST',
      `/api/admin/members/${memberId}/erase`,
      { reason: 'pedido do cliente', confirm_email: noted.email },
      owner.token,
    );
    expect(erased.statusCode, erased.body).toBe(200);
    expect((await staff.client.get(url, staff.token)).json()).toEqual([]);
  });
});
