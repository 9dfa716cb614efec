import { useNavigate, useSearch } from '@tanstack/react-router';
import { useCallback } from 'react';
import type { ModalSearch } from '../../machines/modal-search.ts';

/** The modal parameters of the current page, as the `/$lang` route's schema validated them. */
export function useModalSearch(): ModalSearch {
  return useSearch({ from: '/$lang' });
}

/**
 * Rewrites the modal parameters, in place by default (closing or switching a view is not a new page); `push`
 * makes a history entry (opening a modal over another, which the back button closes). Undefined values go.
 */
export function useUpdateModalSearch() {
  const navigate = useNavigate({ from: '/$lang' });
  return useCallback(
    (update: (previous: ModalSearch) => ModalSearch, push = false) =>
      navigate({
        to: '.',
        replace: !push,
        resetScroll: false,
        hash: (previous) => previous ?? '',
        search: (previous) => {
          const next = { ...update(previous) };
          for (const key of Object.keys(next) as (keyof ModalSearch)[]) {
            if (next[key] === undefined) delete next[key];
          }
          return next;
        },
      }),
    [navigate],
  );
}

/** Puts the login in front (a history entry: the back button returns to the modal that asked for it). */
export function useOpenLogin(): () => void {
  const updateSearch = useUpdateModalSearch();
  return useCallback(
    () => void updateSearch((previous) => ({ ...previous, auth_tab: 'login' }), true),
    [updateSearch],
  );
}
