// The modals of spec 2.5 to 2.8 (auth, account, branch/booking, payment result). Each is a lazily loaded
// chunk that mounts when its query parameters ask for it, so the landing page carries none of their code.
import { AccountModalMount } from '../account/AccountModalMount.tsx';
import { AuthModalMount } from '../auth/AuthModalMount.tsx';
import { BookingModalMount, PaymentResultMount } from '../booking/BookingModalMount.tsx';

export function Modals() {
  return (
    <>
      <AccountModalMount />
      <BookingModalMount />
      <PaymentResultMount />
      <AuthModalMount />
    </>
  );
}
