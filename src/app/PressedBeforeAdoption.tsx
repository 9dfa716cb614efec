import { useEffect } from 'react';
import { pressAgain } from './early-press.ts';

/** Rendered beside an adopted page: once it is adopted, presses the button pressed before (src/app/early-press.ts). */
export function PressedBeforeAdoption() {
  useEffect(pressAgain, []);
  return null;
}
