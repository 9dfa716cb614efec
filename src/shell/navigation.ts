import { createContext, use, useCallback, type MouseEvent } from 'react';
import type { AccountTab, AuthTab, BookingTab } from '../../machines/modal-search.ts';
import { DEFAULT_LOCALE, isLocale, localeSegment, type Locale } from '../i18n/locales.ts';

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

export type ModalRequest =
  | { modal: 'auth'; tab: AuthTab }
  | { modal: 'booking'; tab: BookingTab; branchId?: number }
  | { modal: 'account'; tab: AccountTab };

/**
 * What a control of the page frame or the landing asks for. The landing's page is adopted before the router is
 * loaded (docs/decisions.md, 'Issue 33: the landing without the router'): its controls say what they want, and
 * whoever navigates does it, with the router at once or as soon as it is there (src/app/routed.tsx, `perform`).
 */
export type NavigationIntent =
  /** The landing page plus #section (a history entry), scrolled to that section (docs/decisions.md, 'Client'). */
  | { kind: 'section'; section: SectionId }
  /** Modals are driven by query parameters; opening one pushes them into history (docs/decisions.md, 'Client'). */
  | { kind: 'modal'; request: ModalRequest }
  /** The same page in another language (the cookie, and a logged-in member's account, take it too). */
  | { kind: 'locale'; locale: Locale }
  /** Another page of the app, by its address (a link's href). */
  | { kind: 'page'; href: string };

export type Navigation = {
  locale: Locale;
  go: (intent: NavigationIntent) => void;
  /** Gets another page of the app ready, on a sign of intent (a pointer over its link, focus). */
  preload: (href: string) => void;
};

/** Given by the page frame: by the router's hooks (src/shell/Shell.tsx), or by the landing before the router. */
export const NavigationContext = createContext<Navigation | null>(null);

export function useNavigation(): Navigation {
  const navigation = use(NavigationContext);
  if (!navigation) throw new Error('useNavigation needs the NavigationContext provider');
  return navigation;
}

/** The locale of an address: its first path segment when that is one, else pt (as the `$lang` route falls back). */
export function localeOfPath(pathname: string): Locale {
  const segment = localeSegment(pathname);
  return isLocale(segment) ? segment : DEFAULT_LOCALE;
}

/** The locale of a landing page's address (`/pt`, `/pt/`), or null for any other address. */
export function landingLocale(pathname: string): Locale | null {
  const match = /^\/([a-z]{2})\/?$/.exec(pathname);
  return isLocale(match?.[1]) ? match[1] : null;
}

export function useLocale(): Locale {
  return useNavigation().locale;
}

/** Navigates to the current locale's landing page plus #section, then scrolls to that section (docs/decisions.md, 'Client'). */
export function useGoToSection() {
  const { go } = useNavigation();
  return useCallback((section: SectionId) => go({ kind: 'section', section }), [go]);
}

/** Modals are driven by query parameters; opening one pushes them into history (docs/decisions.md, 'Client'). */
export function useOpenModal() {
  const { go } = useNavigation();
  return useCallback((request: ModalRequest) => go({ kind: 'modal', request }), [go]);
}

/**
 * Switching replaces the leading locale segment, keeps the rest, saves the cookie (and, logged in, the account's
 * language) and re-validates the token.
 */
export function useSwitchLocale() {
  const { go } = useNavigation();
  return useCallback((locale: Locale) => go({ kind: 'locale', locale }), [go]);
}

/**
 * A link's click, taken over for the app's own navigation unless the browser should follow it itself: another
 * button than the first, a modifier key (a new tab or window), or another target. Without JavaScript the link
 * (its real href) works as it is.
 */
export function isPlainClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  const target = event.currentTarget.getAttribute('target');
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) &&
    (!target || target === '_self')
  );
}
