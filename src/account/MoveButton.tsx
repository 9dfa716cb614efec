import { useLingui } from '@lingui/react/macro';
import { Button } from '@mantine/core';
import type { Booking } from '../../machines/myBookings.selectors.ts';
import { useUpdateModalSearch } from '../auth/useModalSearch.ts';

/** "Move": opens the booking modal in move mode for the booking's branch (docs/decisions.md, "Moving a booking"). */
export function MoveButton({ booking, when }: { booking: Booking; when: string }) {
  const { t } = useLingui();
  const updateSearch = useUpdateModalSearch();
  return (
    <Button
      variant="light"
      size="xs"
      aria-label={t`Mudar a reserva de ${when}`}
      onClick={() =>
        void updateSearch((previous) => ({
          ...previous,
          account_tab: undefined,
          booking_tab: 'bookSessions',
          booking_branch_id: booking.time_slot_data.branch_data.id,
          move_booking_id: booking.id,
        }))
      }
    >
      {t`Mudar`}
    </Button>
  );
}
