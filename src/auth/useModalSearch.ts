import { useNavigate, useSearch } from '@tanstack/react-router';
import { useCallback } from 'react';
import type { ModalSearch } from '../../machines/modal-search.ts';

/** The validated modal parameters of the current page (spec 2.5-2.8). */
export function useModalSearch(): ModalSearch {
  return useSearch({ strict: false }) as ModalSearch;
}

/**
 * Rewrites the modal parameters, in place by default (closing or switching a view is not a new page); `push`
 * makes a history entry (opening a modal over another, which the back button closes). Undefined values go.
 */
export function useUpdateModalSearch() {
  const navigate = useNavigate();
  return useCallback(
    (update: (previous: ModalSearch) => ModalSearch, push = false) =>
      navigate({
        to: '.',
        replace: !push,
        resetScroll: false,
        hash: (previous) => previous ?? '',
        search: (previous: Record<string, unknown>) => {
          const next: Record<string, unknown> = { ...update(previous as ModalSearch) };
          for (const key of Object.keys(next)) if (next[key] === undefined) delete next[key];
          return next;
        },
      }),
    [navigate],
  );
}
