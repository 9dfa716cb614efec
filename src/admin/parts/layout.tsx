import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Loader,
  Stack,
  Text,
  Title,
  type AnchorProps,
} from '@mantine/core';
import { ErrorComponent, Link, type ErrorComponentProps } from '@tanstack/react-router';
import { OwnerOnlyError } from '../../../machines/adminSearch.ts';
import { type ReactNode } from 'react';
import { type Feedback } from '../../../machines/feedback.ts';
import { useAdminLocale } from '../context.tsx';
import { SubmitForm } from '../../ui/SubmitForm.tsx';
import { ErrorBox } from '../feedback.tsx';

// The console's page frame pieces: a page under its title, its parts and cards, links, what a refused page says.

/**
 * What an owner-only page's route shows when its `beforeLoad` refused the operator (src/router.tsx): the page
 * never rendered; any other error is the router's own error view.
 */
export function OwnersOnlyRefusal({ error }: ErrorComponentProps) {
  if (error instanceof OwnerOnlyError) return <Forbidden />;
  return <ErrorComponent error={error} />;
}

export function Forbidden() {
  return (
    <Alert color="yellow" variant="light" role="alert" title={<Trans>Sem acesso</Trans>}>
      <Trans>Esta página é só para responsáveis.</Trans>
    </Alert>
  );
}

export function PageTitle({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <Group justify="space-between" mb="md" wrap="wrap">
      <Title order={2} size="h3">
        {children}
      </Title>
      {actions}
    </Group>
  );
}

/** A console page: its title (with `actions` beside it), then its parts one under another. */
export function ConsolePage({
  title,
  actions,
  children,
}: {
  title: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Stack>
      <PageTitle actions={actions}>{title}</PageTitle>
      {children}
    </Stack>
  );
}

export type QueryLike = {
  state: {
    matches: (value: 'loading' | 'loaded' | 'failed' | 'forbidden') => boolean;
    context: { error: Feedback | null };
  };
  reload: () => void;
};

/** What every list shows around its data: a spinner on the first load, the failure with Retry, the role refusal. */
export function QueryStatus({ query, hasData }: { query: QueryLike; hasData: boolean }) {
  const { t } = useLingui();
  if (query.state.matches('forbidden')) return <Forbidden />;
  if (query.state.matches('failed'))
    return (
      <Stack gap="xs" align="flex-start">
        <ErrorBox error={query.state.context.error} />
        <Button variant="default" size="xs" onClick={query.reload}>
          <Trans>Tentar novamente</Trans>
        </Button>
      </Stack>
    );
  if (query.state.matches('loading') && !hasData) return <Loader size="sm" aria-label={t`A carregar`} />;
  return null;
}

export function Empty({ children }: { children: ReactNode }) {
  return (
    <Text c="gray.4" size="sm">
      {children}
    </Text>
  );
}

/**
 * A link to a console page (`path` after `/{lang}/admin/`), styled as Mantine's Anchor; underlined, so that it
 * stands out from the text around it by more than its colour.
 */
export function AdminLink({ path, children, ...props }: { path: string; children: ReactNode } & AnchorProps) {
  const lang = useAdminLocale();
  return (
    <Anchor
      underline="always"
      {...props}
      renderRoot={(root) => <Link {...root} to="/$lang/admin/$" params={{ lang, _splat: path }} />}
    >
      {children}
    </Anchor>
  );
}

/**
 * A part of a page under its own heading (`id` names the heading, which labels the part); `empty`, when given,
 * is said instead of the content (a list with nothing in it).
 */
export function Section({
  id,
  title,
  empty,
  children,
}: {
  id: string;
  title: ReactNode;
  empty?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id}>
      <Title order={3} size="h5" id={id} mb="xs">
        {title}
      </Title>
      {empty ? <Empty>{empty}</Empty> : children}
    </section>
  );
}

/** A list's search form: its fields in a row, then Search; submitting it (Enter or the button) runs `onSearch`. */
export function SearchForm({ onSearch, children }: { onSearch: () => void; children: ReactNode }) {
  return (
    <SubmitForm role="search" onSubmit={onSearch}>
      <Group align="flex-end" wrap="wrap" gap="sm">
        {children}
        <Button type="submit" variant="default">
          <Trans>Procurar</Trans>
        </Button>
      </Group>
    </SubmitForm>
  );
}

/** A form or panel on a page, in a card under its own heading (`id` names the heading, which labels the card). */
export function SectionCard({ id, title, children }: { id: string; title: ReactNode; children: ReactNode }) {
  return (
    <Card withBorder component="section" aria-labelledby={id}>
      <Title order={3} size="h5" id={id} mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

/** A figure with its label above and an optional note below (the money report's totals). */
export function Figure({ label, value, note }: { label: ReactNode; value: ReactNode; note?: ReactNode }) {
  return (
    <Card withBorder padding="sm">
      <Text size="xs" c="gray.4">
        {label}
      </Text>
      <Text fw={700}>{value}</Text>
      {note !== undefined && <Text size="xs">{note}</Text>}
    </Card>
  );
}
