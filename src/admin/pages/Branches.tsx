import { createLazyRoute, useParams } from '@tanstack/react-router';
import { NoSuchPage, recordNumber } from '../AdminConsole.tsx';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Button,
  Card,
  Group,
  NativeSelect,
  NumberInput,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Tabs,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useState } from 'react';
import type {
  AdminBranch,
  AdminBranchUpdate,
  BranchChangePreview,
} from '../../../machines/adminConsole.actors.ts';
import { LOCALES } from '../../i18n/locales.ts';
import { ErrorBox } from '../feedback.tsx';
import { useOperator } from '../context.tsx';
import { useAdminQuery, useAdminTask, useDraft } from '../hooks.ts';
import { AdminLink, ConsolePage, PageTitle, QueryStatus } from '../parts/layout.tsx';

type Effect = BranchChangePreview['effects'][number];

function useEffectText() {
  const { t } = useLingui();
  const texts: Record<Effect, string> = {
    schedule_from_next_generated_day: t`O novo horário aplica-se a partir do próximo dia gerado.`,
    slots_already_generated_keep_times: t`Os horários já gerados mantêm as horas.`,
    deactivation_keeps_bookings: t`Desativar não cancela as reservas existentes.`,
    becomes_bookable: t`A filial passa a aceitar reservas.`,
    doors_remapped: t`As portas mudam: os códigos são programados nas novas.`,
    landing_page_changes: t`A página inicial mostra a mudança.`,
  };
  return (effect: Effect) => texts[effect];
}

type Change = BranchChangePreview['changes'][number];

/** A value's parts at their paths (`arrival.texts.en.directions`); lists are one part. */
function partsOf(value: unknown, path: string, into = new Map<string, unknown>()): Map<string, unknown> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, inner] of Object.entries(value)) partsOf(inner, `${path}.${key}`, into);
  } else {
    into.set(path, value);
  }
  return into;
}

/** At most this many characters of a value (a description) in the preview. */
const SHOWN_CHARACTERS = 120;

/**
 * The preview's changes as a person reads them: each changed part under the label of its field in the form, its
 * value before and after as typed ("—" for none), never as JSON (the arrival kit's change was one line of JSON).
 */
function useChangeLines() {
  const { t } = useLingui();
  const label = (path: string): string => {
    const [field = '', part = '', language = '', text] = path.split('.');
    const labels: Record<string, string> = {
      name: t`Nome`,
      location: t`Morada`,
      time_zone: t`Fuso horário`,
      slot_minutes: t`Duração de cada horário (minutos)`,
      order: t`Ordem`,
      vat_rate: t`IVA dos pagamentos`,
      guest_limit: t`Convidados por reserva`,
      map_url: t`Ligação do mapa`,
      images: t`Imagens (um endereço por linha)`,
      lock_devices: t`Portas (identificadores separados por vírgulas)`,
      active_with_smart_lock: t`Ativa (aceita reservas, com fechadura inteligente)`,
      'arrival.entrance_photo_url': t`Fotografia da entrada (endereço)`,
      'arrival.wifi_network': t`Rede Wi-Fi`,
      'arrival.wifi_password': t`Palavra-passe do Wi-Fi`,
    };
    if (field === 'descriptions') {
      const locale = part;
      return t`Descrição (${locale})`;
    }
    if (field === 'arrival' && part === 'texts') {
      const locale = language;
      if (text === 'directions') return t`Como encontrar a entrada (${locale})`;
      if (text === 'keypad') return t`Onde está o teclado e como marcar o código (${locale})`;
      if (text === 'rules') return t`Regras da casa, numa linha (${locale})`;
    }
    return labels[path] ?? path;
  };
  const shown = (value: unknown): string => {
    const text = Array.isArray(value)
      ? value.join(', ')
      : typeof value === 'boolean'
        ? value
          ? t`Sim`
          : t`Não`
        : typeof value === 'string' || typeof value === 'number'
          ? String(value)
          : '';
    if (text.trim() === '') return '—';
    return text.length > SHOWN_CHARACTERS ? `${text.slice(0, SHOWN_CHARACTERS)}…` : text;
  };
  return (change: Change) => {
    const before = partsOf(change.before, change.field);
    return [...partsOf(change.after, change.field)]
      .filter(([path, after]) => JSON.stringify(before.get(path) ?? null) !== JSON.stringify(after ?? null))
      .map(([path, after]) => ({
        path,
        text: `${label(path)}: ${shown(before.get(path))} → ${shown(after)}`,
      }));
  };
}

/** What differs from the branch as loaded: only changed fields are sent (and audited). */
function changesOf(branch: AdminBranch, edited: AdminBranch): AdminBranchUpdate {
  const update: Record<string, unknown> = {};
  for (const key of [
    'name',
    'location',
    'time_zone',
    'slot_minutes',
    'active_with_smart_lock',
    'map_url',
    'order',
    'vat_rate',
    'guest_limit',
  ] as const)
    if (edited[key] !== branch[key]) update[key] = edited[key];
  if (JSON.stringify(edited.images) !== JSON.stringify(branch.images)) update.images = edited.images;
  if (JSON.stringify(edited.arrival) !== JSON.stringify(branch.arrival)) update.arrival = edited.arrival;
  if (JSON.stringify(edited.lock_devices) !== JSON.stringify(branch.lock_devices))
    update.lock_devices = edited.lock_devices;
  const descriptions = Object.fromEntries(
    LOCALES.filter((locale) => edited.descriptions[locale] !== branch.descriptions[locale]).map((locale) => [
      locale,
      edited.descriptions[locale],
    ]),
  );
  if (Object.keys(descriptions).length > 0) update.descriptions = descriptions;
  return update;
}

/** The items of a list typed as text, split at `separator`, without blanks. */
function listOf(text: string, separator: string): string[] {
  return text
    .split(separator)
    .map((item) => item.trim())
    .filter(Boolean);
}

type ArrivalKit = AdminBranch['arrival'];
type ArrivalTexts = ArrivalKit['texts']['pt'];

/**
 * The arrival kit (issue 30, item 1): what the door-code e-mail and My bookings show a member at the unstaffed
 * door. Texts per language; one left empty is shown in Portuguese.
 */
function ArrivalEditor({ kit, onChange }: { kit: ArrivalKit; onChange: (kit: ArrivalKit) => void }) {
  const { t } = useLingui();
  const setText = (locale: (typeof LOCALES)[number], patch: Partial<ArrivalTexts>) =>
    onChange({ ...kit, texts: { ...kit.texts, [locale]: { ...kit.texts[locale], ...patch } } });
  const orNull = (value: string) => (value.trim() === '' ? null : value);
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Text fw={600}>
          <Trans>Chegada: o que o membro recebe com o código da porta</Trans>
        </Text>
        <TextInput
          label={t`Fotografia da entrada (endereço)`}
          value={kit.entrance_photo_url ?? ''}
          onChange={(event) => onChange({ ...kit, entrance_photo_url: orNull(event.currentTarget.value) })}
        />
        <Group grow wrap="wrap">
          <TextInput
            label={t`Rede Wi-Fi`}
            value={kit.wifi_network ?? ''}
            onChange={(event) => onChange({ ...kit, wifi_network: orNull(event.currentTarget.value) })}
          />
          <TextInput
            label={t`Palavra-passe do Wi-Fi`}
            value={kit.wifi_password ?? ''}
            onChange={(event) => onChange({ ...kit, wifi_password: orNull(event.currentTarget.value) })}
          />
        </Group>
        <Text size="sm" c="dimmed">
          <Trans>Um texto deixado vazio é mostrado em português.</Trans>
        </Text>
        <Tabs defaultValue="pt" keepMounted={false}>
          <Tabs.List>
            {LOCALES.map((locale) => (
              <Tabs.Tab key={locale} value={locale}>
                {locale}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {LOCALES.map((locale) => (
            <Tabs.Panel key={locale} value={locale} pt="sm">
              <Stack gap="sm">
                <Textarea
                  label={t`Como encontrar a entrada (${locale})`}
                  autosize
                  minRows={2}
                  maxLength={2000}
                  value={kit.texts[locale].directions}
                  onChange={(event) => setText(locale, { directions: event.currentTarget.value })}
                />
                <Textarea
                  label={t`Onde está o teclado e como marcar o código (${locale})`}
                  autosize
                  minRows={2}
                  maxLength={2000}
                  value={kit.texts[locale].keypad}
                  onChange={(event) => setText(locale, { keypad: event.currentTarget.value })}
                />
                <TextInput
                  label={t`Regras da casa, numa linha (${locale})`}
                  maxLength={300}
                  value={kit.texts[locale].rules}
                  onChange={(event) => setText(locale, { rules: event.currentTarget.value })}
                />
              </Stack>
            </Tabs.Panel>
          ))}
        </Tabs>
      </Stack>
    </Card>
  );
}

function BranchEditor({ branch, onSaved }: { branch: AdminBranch; onSaved: () => void }) {
  const { t } = useLingui();
  const effectText = useEffectText();
  const changeLines = useChangeLines();
  const draft = useDraft(branch);
  const edited = draft.fields;
  const preview = useAdminTask('previewBranch');
  const save = useAdminTask('updateBranch', onSaved);
  const update = changesOf(branch, edited);
  const changed = Object.keys(update).length > 0;
  const set = (patch: Partial<AdminBranch>) => {
    draft.change(patch);
    preview.dismiss();
  };
  const shown = preview.state.matches('done') ? preview.output : null;
  // The VAT of the branch's payments is a money matter: only owners change it (the server refuses staff).
  const isOwner = useOperator()?.role === 'owner';
  const vatRates = [
    { value: '', label: t`IVA do servidor (VAT_RATE)` },
    ...['0.23', '0.13', '0.06'].map((rate) => ({ value: rate, label: `${Number(rate) * 100} %` })),
  ];
  return (
    <Stack>
      <Card withBorder>
        <Stack gap="sm">
          <Group grow wrap="wrap">
            <TextInput
              label={t`Nome`}
              value={edited.name}
              onChange={(event) => set({ name: event.currentTarget.value })}
            />
            <TextInput
              label={t`Morada`}
              value={edited.location}
              onChange={(event) => set({ location: event.currentTarget.value })}
            />
          </Group>
          {/* One field a line on a phone: five side by side left each a few letters wide. */}
          <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }} verticalSpacing="sm">
            <TextInput
              label={t`Fuso horário`}
              value={edited.time_zone}
              onChange={(event) => set({ time_zone: event.currentTarget.value })}
            />
            <NumberInput
              label={t`Duração de cada horário (minutos)`}
              min={15}
              max={1440}
              value={edited.slot_minutes}
              onChange={(value) => set({ slot_minutes: Number(value) || 0 })}
            />
            <NumberInput
              label={t`Ordem`}
              value={edited.order}
              onChange={(value) => set({ order: Number(value) || 0 })}
            />
            <NumberInput
              label={t`Convidados por reserva`}
              description={t`Cada um com o seu código da porta; 0 desliga os convidados.`}
              min={0}
              max={20}
              allowDecimal={false}
              value={edited.guest_limit}
              onChange={(value) => set({ guest_limit: Number(value) || 0 })}
            />
            <NativeSelect
              label={t`IVA dos pagamentos`}
              description={t`Só os pagamentos futuros; os registados mantêm a sua taxa.`}
              disabled={!isOwner}
              data={vatRates}
              value={edited.vat_rate === null ? '' : String(edited.vat_rate)}
              onChange={(event) =>
                set({ vat_rate: event.currentTarget.value === '' ? null : Number(event.currentTarget.value) })
              }
            />
          </SimpleGrid>
          <TextInput
            label={t`Ligação do mapa`}
            value={edited.map_url ?? ''}
            onChange={(event) =>
              set({ map_url: event.currentTarget.value === '' ? null : event.currentTarget.value })
            }
          />
          <Textarea
            label={t`Imagens (um endereço por linha)`}
            autosize
            minRows={2}
            value={edited.images.join('\n')}
            onChange={(event) => set({ images: listOf(event.currentTarget.value, '\n') })}
          />
          <TextInput
            label={t`Portas (identificadores separados por vírgulas)`}
            value={edited.lock_devices.join(', ')}
            onChange={(event) => set({ lock_devices: listOf(event.currentTarget.value, ',') })}
          />
          <Switch
            label={t`Ativa (aceita reservas, com fechadura inteligente)`}
            checked={edited.active_with_smart_lock}
            onChange={(event) => set({ active_with_smart_lock: event.currentTarget.checked })}
          />
          {LOCALES.map((locale) => (
            <Textarea
              key={locale}
              label={t`Descrição (${locale})`}
              autosize
              minRows={2}
              maxRows={8}
              value={edited.descriptions[locale]}
              onChange={(event) =>
                set({ descriptions: { ...edited.descriptions, [locale]: event.currentTarget.value } })
              }
            />
          ))}
        </Stack>
      </Card>
      <ArrivalEditor kit={edited.arrival} onChange={(arrival) => set({ arrival })} />
      <ErrorBox error={preview.state.context.error ?? save.state.context.error} />
      {shown && (
        <Alert color="blue" variant="light" title={t`O que esta mudança afeta`} role="status">
          <Stack gap={4}>
            {shown.changes.flatMap(changeLines).map((line) => (
              <Text size="sm" key={line.path}>
                {line.text}
              </Text>
            ))}
            {shown.effects.map((effect) => (
              <Text size="sm" key={effect}>
                {effectText(effect)}
              </Text>
            ))}
            <Text size="sm">
              <Plural
                value={shown.future_bookings}
                one="# reserva futura nesta filial."
                other="# reservas futuras nesta filial."
              />
            </Text>
          </Stack>
        </Alert>
      )}
      <Group>
        <Button
          variant="default"
          disabled={!changed}
          loading={preview.state.matches('running')}
          onClick={() => preview.run({ id: branch.id, update })}
        >
          <Trans>Ver o que muda</Trans>
        </Button>
        <Button
          disabled={!changed || shown === null}
          loading={save.state.matches('running')}
          onClick={() => save.run({ id: branch.id, update })}
        >
          <Trans>Guardar</Trans>
        </Button>
      </Group>
      {save.state.matches('done') && (
        <Alert color="green" variant="light" role="status">
          <Trans>Filial guardada.</Trans>
        </Alert>
      )}
    </Stack>
  );
}

function BranchPage({ id }: { id: number }) {
  const query = useAdminQuery('branch', { id });
  const [version, setVersion] = useState(0);
  return (
    <Stack>
      <AdminLink path={'branches'} size="sm">
        ← <Trans>Filiais</Trans>
      </AdminLink>
      <PageTitle>{query.data?.name ?? `#${id}`}</PageTitle>
      <QueryStatus query={query} hasData={query.data !== null} />
      {query.data && (
        <BranchEditor
          key={version}
          branch={query.data}
          onSaved={() => {
            query.reload();
            setVersion((value) => value + 1);
          }}
        />
      )}
    </Stack>
  );
}

/** Branches (issue 18): what the CLI can set, with what a change affects shown before saving. */
function Branches() {
  const { t } = useLingui();
  const list = useAdminQuery('branches');
  return (
    <ConsolePage title={<Trans>Filiais</Trans>}>
      <QueryStatus query={list} hasData={list.data !== null} />
      {list.data && (
        <Table striped verticalSpacing="xs">
          <Table.Tbody>
            {list.data.map((branch) => (
              <Table.Tr key={branch.id}>
                <Table.Td>
                  <AdminLink path={`branches/${branch.id}`}>{branch.name}</AdminLink>
                </Table.Td>
                <Table.Td>{branch.time_zone}</Table.Td>
                <Table.Td>{branch.active_with_smart_lock ? t`ativa` : t`inativa`}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </ConsolePage>
  );
}

/** `/{lang}/admin/branches/<id>`: a branch's settings; an address with no branch number is no page. */
function BranchRoute() {
  const { branchId } = useParams({ from: '/$lang/admin/branches/$branchId' });
  const id = recordNumber(branchId);
  return id === null ? <NoSuchPage /> : <BranchPage key={id} id={id} />;
}

export const Route = createLazyRoute('/$lang/admin/branches')({ component: Branches });
export const BranchPageRoute = createLazyRoute('/$lang/admin/branches/$branchId')({ component: BranchRoute });
