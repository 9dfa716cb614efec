import './ui/app.css';
// The landing page's styles come with the entry: its prerendered markup is painted before the app loads.
import './landing/landing.css';
// So is the booking modal that the server puts into the first HTML of an address naming a branch.
import './booking/booking-shell.css';
import { keepEarlyPresses } from './app/early-press.ts';

// Development: the native app's mode in a browser (README, "The mobile app in a browser"). `?native-preview` on a
// local address turns it on for the tab (`?native-preview=off` turns it off); Capacitor reads the platform when
// the app's code loads, below.
if (['localhost', '127.0.0.1'].includes(window.location.hostname)) {
  const asked = new URLSearchParams(window.location.search).get('native-preview');
  if (asked !== null) sessionStorage.setItem('native-preview', asked === 'off' ? '' : 'android');
  const platform = sessionStorage.getItem('native-preview');
  if (platform)
    (window as { CapacitorCustomPlatform?: unknown }).CapacitorCustomPlatform = {
      name: platform,
      plugins: {},
    };
}

// The server sends each page prerendered (src/prerender.tsx), so the first paint needs no JavaScript:
// the app itself is fetched and started right after that paint, and then takes over the page.
// A button pressed before then is pressed again once the app has adopted the page (src/app/early-press.ts).
const start = () => void import('./app/start.tsx');
const root = document.getElementById('root');
if (root?.hasChildNodes()) {
  keepEarlyPresses(root);
  requestAnimationFrame(() => setTimeout(start, 0));
} else start();
