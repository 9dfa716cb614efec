import { useLocation, useParams } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { createContext, use } from 'react';
import type { Operator } from '../../machines/adminSession.machine.ts';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../i18n/locales.ts';
import type { AdminRuntime } from './runtime.ts';

export const AdminContext = createContext<AdminRuntime | null>(null);

export function useAdmin(): AdminRuntime {
  const admin = use(AdminContext);
  if (!admin) throw new Error('useAdmin needs the AdminContext provider');
  return admin;
}

export function useOperator(): Operator | null {
  return useSelector(useAdmin().session, (state) => state.context.operator);
}

export function useIsOwner(): boolean {
  return useOperator()?.role === 'owner';
}

/** Whether the operator has every branch (owners, and staff no owner limited to some). */
export function useHasAllBranches(): boolean {
  return (useOperator()?.branch_ids ?? null) === null;
}

export function useAdminLocale(): Locale {
  const { lang } = useParams({ strict: false });
  return isLocale(lang) ? lang : DEFAULT_LOCALE;
}

/** The console's page path after `/{lang}/admin/`, split in segments ('' is Today). */
export function useAdminPath(): string[] {
  const pathname = useLocation({ select: (location) => location.pathname });
  const [, rest = ''] = /\/admin(?:\/(.*))?$/.exec(pathname) ?? [];
  return rest.split('/').filter((segment) => segment !== '');
}
