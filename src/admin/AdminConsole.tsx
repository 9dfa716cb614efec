import '@mantine/core/styles.css';
import './admin.css';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  AppShell,
  Badge,
  Burger,
  Button,
  Center,
  type CSSVariablesResolver,
  Group,
  Loader,
  MantineProvider,
  NativeSelect,
  NavLink,
  ScrollArea,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import {
  Link,
  Outlet,
  useLocation,
  useNavigate,
  useRouteContext,
  useRouter,
  useSearch,
} from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { createContext, Suspense, use, useEffect, useEffectEvent, useState, type ReactNode } from 'react';
import { rememberLocale } from '../i18n/i18n.ts';
import { LOCALE_NAMES, LOCALES, switchLocaleInPath, type Locale } from '../i18n/locales.ts';
import { darkOnly, theme } from '../ui/theme.ts';
import { AdminContext, useAdmin, useAdminLocale, useAdminPath, useOperator } from './context.tsx';
import { useAdminQuery } from './hooks.ts';
import { Login } from './Login.tsx';
import { SECTIONS, type SectionPath } from './sections.ts';
import { Setup } from './Setup.tsx';

/**
 * Contrast on the console's dark surfaces (axe, WCAG AA): the theme's filled red (shade 5 under white text, 2.5:1)
 * is its shade 9 (5.0:1), and dimmed text (descriptions, hints: dark 2 on a dialog's dark 7, 4.0:1) is dark 1. A
 * field's error (red 8 on an input's dark 6, 3.0:1) is red 4 (5.7:1).
 */
const consoleContrast: CSSVariablesResolver = () => ({
  variables: {},
  light: {},
  dark: {
    '--mantine-color-red-filled': 'var(--mantine-color-red-9)',
    '--mantine-color-red-filled-hover': '#b02525',
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-error': 'var(--mantine-color-red-4)',
  },
});

/** `/{lang}/admin/...`: the operator console (issue 18), in chunks member pages never load. */
export function AdminConsole() {
  // Made by the console route's `beforeLoad` (src/router.tsx), which has also settled the session.
  const { admin } = useRouteContext({ from: '/$lang/admin' });
  useEffect(() => {
    document.documentElement.dataset.appReady = 'true';
  }, []);
  return (
    // The console's own provider, with Mantine's global classes (hiddenFrom/visibleFrom for the phone layout),
    // which the member app's MantineLayer leaves out.
    <MantineProvider
      theme={theme}
      forceColorScheme="dark"
      defaultColorScheme="dark"
      colorSchemeManager={darkOnly}
      cssVariablesResolver={consoleContrast}
    >
      <AdminContext value={admin}>
        <Frame />
      </AdminContext>
    </MantineProvider>
  );
}

function Frame() {
  const { session } = useAdmin();
  const router = useRouter();
  // The one-time link of `operator add` is `/{lang}/admin?setup=<token>`.
  const { setup } = useSearch({ from: '/$lang/admin' });
  // Who the routes were loaded for (their `beforeLoad`: owner-only pages refused to staff) and who is signed in now.
  const loadedFor = useRouteContext({ from: '/$lang/admin', select: (context) => context.operator });
  const operator = useSelector(session, (state) =>
    state.matches('loggedIn') ? state.context.operator : null,
  );
  const phase = useSelector(session, (state) =>
    state.matches('loggedIn') || state.matches('loggingOut')
      ? 'in'
      : state.matches('loggedOut') || state.matches('loggingIn')
        ? 'out'
        : 'checking',
  );
  const current = loadedFor?.email === operator?.email && loadedFor?.role === operator?.role;
  useEffect(() => {
    // A login, a logout or an ended session: the routes decide again (an owner-only page, now for staff).
    if (!current) void router.invalidate();
  }, [current, router]);
  if (setup) return <Setup setupToken={setup} />;
  if (phase === 'checking') return <Waiting />;
  if (phase === 'out') return <Login />;
  // Signed in, and the routes not yet loaded again for this operator: nothing of a page renders meanwhile.
  if (!current) return <Waiting />;
  return <Layout />;
}

export function Waiting() {
  return (
    <Center p="xl">
      <Loader aria-label="…" />
    </Center>
  );
}

function useSectionLabels(): Record<SectionPath, string> {
  const { t } = useLingui();
  return {
    '': t`Hoje`,
    bookings: t`Reservas`,
    approvals: t`Aprovações`,
    doors: t`Portas`,
    closures: t`Encerramentos`,
    broadcasts: t`Mensagens`,
    members: t`Clientes`,
    branches: t`Filiais`,
    prices: t`Preços`,
    coupons: t`Cupões`,
    'credit-packs': t`Pacotes`,
    'gift-vouchers': t`Vales`,
    'refund-policy': t`Política de reembolso`,
    money: t`Receitas e uso`,
    documents: t`Faturas e notas de crédito`,
    audit: t`Registo de auditoria`,
    operators: t`Operadores`,
  };
}

const PendingApprovals = createContext<{ count: number; reload: () => void }>({
  count: 0,
  reload: () => {},
});

/**
 * How many staff refunds wait for an owner, beside Approvals in an owner's navigation: read again on every page
 * the owner opens (one small call), and when the Approvals page decides one (`usePendingApprovals().reload`).
 */
function PendingApprovalsCount({ page, children }: { page: string; children: ReactNode }) {
  const query = useAdminQuery('pendingApprovals', { page });
  const reload = useEffectEvent(() => query.reload());
  useEffect(() => reload(), [page]);
  return (
    <PendingApprovals value={{ count: query.data ?? 0, reload: query.reload }}>{children}</PendingApprovals>
  );
}

/** The owner's count of refunds waiting (0 for staff), and reading it again after a decision. */
export function usePendingApprovals() {
  return use(PendingApprovals);
}

function PendingBadge() {
  const { t } = useLingui();
  const { count } = usePendingApprovals();
  if (count === 0) return null;
  return (
    <Badge size="sm" color="yellow" variant="light">
      {count}
      <VisuallyHidden>{t`à espera`}</VisuallyHidden>
    </Badge>
  );
}

function LanguageSwitch() {
  const { t } = useLingui();
  const lang = useAdminLocale();
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <NativeSelect
      aria-label={t`Idioma`}
      size="xs"
      value={lang}
      data={LOCALES.map((locale) => ({ value: locale, label: LOCALE_NAMES[locale] }))}
      onChange={(event) => {
        const locale = event.currentTarget.value as Locale;
        rememberLocale(locale);
        void navigate({ href: `${switchLocaleInPath(location.pathname, locale)}${location.searchStr}` });
      }}
    />
  );
}

function Layout() {
  const { t } = useLingui();
  const { session } = useAdmin();
  const operator = useOperator();
  const lang = useAdminLocale();
  const [section = ''] = useAdminPath();
  const labels = useSectionLabels();
  const [navOpen, setNavOpen] = useState(false);
  const isOwner = operator?.role === 'owner';
  const visible = SECTIONS.filter((entry) => isOwner || !entry.ownerOnly);
  const shell = (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 230, breakpoint: 'sm', collapsed: { mobile: !navOpen } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={navOpen}
              onClick={() => setNavOpen((open) => !open)}
              hiddenFrom="sm"
              size="sm"
              aria-label={t`Menu`}
            />
            <Title order={1} size="h4">
              <Trans>Consola</Trans>
            </Title>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <LanguageSwitch />
            <Button variant="default" size="xs" onClick={() => session.send({ type: 'logout' })}>
              <Trans>Sair</Trans>
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t`Secções da consola`}>
        <AppShell.Section grow component={ScrollArea}>
          {visible.map((entry) => (
            <NavLink
              key={entry.path}
              renderRoot={(root) => (
                // The section is what marks a link current (`active` below), not the router's prefix match,
                // which took Today (`/admin/`) as the parent of every page.
                <Link
                  {...root}
                  to="/$lang/admin/$"
                  params={{ lang, _splat: entry.path }}
                  activeOptions={{ exact: true }}
                />
              )}
              label={labels[entry.path]}
              rightSection={entry.path === 'approvals' && isOwner ? <PendingBadge /> : undefined}
              active={entry.path === section}
              aria-current={entry.path === section ? 'page' : undefined}
              onClick={() => setNavOpen(false)}
            />
          ))}
        </AppShell.Section>
        <AppShell.Section>
          <Text size="xs" c="gray.4" p="xs">
            {operator?.email} · {operator?.role === 'owner' ? t`responsável` : t`equipa`}
          </Text>
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>
        <Suspense fallback={<Waiting />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
  return isOwner ? <PendingApprovalsCount page={section}>{shell}</PendingApprovalsCount> : shell;
}

/** A console address that is no page. */
export function NoSuchPage() {
  return (
    <Text>
      <Trans>Esta página não existe.</Trans>
    </Text>
  );
}

/** The record an address names (`bookings/<id>`, `branches/<id>`): a positive number, or null for no page. */
export function recordNumber(segment: string): number | null {
  const id = Number(segment);
  return /^\d{1,9}$/.test(segment) && id > 0 ? id : null;
}
