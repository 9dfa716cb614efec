import { useNavigate, useParams } from '@tanstack/react-router';
import { useCallback } from 'react';
import type { AccountTab, AuthTab, BookingTab } from '../../machines/modal-search.ts';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../i18n/locales.ts';

export const SECTION_IDS = {
  home: 'home',
  why: 'why-private-gym',
  ai: 'ai-trainer',
  how: 'how-it-works',
  branches: 'branches',
  faq: 'faq',
  pricing: 'pricing',
} as const;
export type SectionId = (typeof SECTION_IDS)[keyof typeof SECTION_IDS];

function prefersReducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

/** Scrolls so that the element's top sits `offset` pixels below the top of the window. */
export function scrollToElement(element: Element, offset: number): void {
  const top = element.getBoundingClientRect().top + window.scrollY - offset;
  window.scrollTo({ top: Math.max(0, top), behavior: prefersReducedMotion() ? 'instant' : 'smooth' });
}

/** The top bar is fixed: sections land just below it (its height is a CSS variable). */
export function scrollToSection(id: string): boolean {
  const element = document.getElementById(id);
  if (!element) return false;
  const barHeight =
    Number.parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--top-bar-height')) || 0;
  scrollToElement(element, barHeight);
  return true;
}

export function useLocale(): Locale {
  const { lang } = useParams({ strict: false });
  return isLocale(lang) ? lang : DEFAULT_LOCALE;
}

/** Navigates to the current locale's landing page plus #section, then scrolls to that section (docs/decisions.md, 'Client'). */
export function useGoToSection() {
  const navigate = useNavigate();
  const locale = useLocale();
  return useCallback(
    (section: SectionId) => {
      void navigate({
        to: '/$lang',
        params: { lang: locale },
        hash: section,
        hashScrollIntoView: false,
      }).then(() => requestAnimationFrame(() => scrollToSection(section)));
    },
    [navigate, locale],
  );
}

export type ModalRequest =
  | { modal: 'auth'; tab: AuthTab }
  | { modal: 'booking'; tab: BookingTab; branchId?: number }
  | { modal: 'account'; tab: AccountTab };

/** Modals are driven by query parameters; opening one pushes them into history (docs/decisions.md, 'Client'). */
export function useOpenModal() {
  const navigate = useNavigate();
  return useCallback(
    (request: ModalRequest) => {
      void navigate({
        to: '.',
        hash: (previous) => previous ?? '',
        search: (previous: Record<string, unknown>) => {
          const next = { ...previous };
          if (request.modal === 'auth') next.auth_tab = request.tab;
          if (request.modal === 'booking') {
            next.booking_tab = request.tab;
            next.booking_branch_id = request.branchId;
          }
          if (request.modal === 'account') next.account_tab = request.tab;
          return next;
        },
      });
    },
    [navigate],
  );
}
