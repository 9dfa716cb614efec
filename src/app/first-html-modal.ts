// The first HTML's booking modal (src/booking/BookingModalShell.tsx) is marked by this attribute; the live app
// takes it away (src/app/Modals.tsx, when the live modal shows or the address opens none). No React here: the
// start chunk imports it, and nothing of the booking modal's chunks does, so the landing loads none of them.
export const SHELL_ATTRIBUTE = 'data-booking-shell';

/** Takes the first HTML's booking modal away: the live modal is showing (or the address opens none). */
export function removeBookingModalShell(): void {
  if (typeof document === 'undefined') return;
  document.querySelector(`[${SHELL_ATTRIBUTE}]`)?.remove();
}
