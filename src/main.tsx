import './ui/app.css';
// The landing page's styles come with the entry: its prerendered markup is painted before the app loads.
import './landing/landing.css';
// So is the booking modal that the server puts into the first HTML of an address naming a branch.
import './booking/booking-shell.css';

// The server sends each page prerendered (src/prerender.tsx), so the first paint needs no JavaScript:
// the app itself is fetched and started right after that paint, and then takes over the page.
const start = () => void import('./app/start.tsx');
if (document.getElementById('root')?.hasChildNodes()) requestAnimationFrame(() => setTimeout(start, 0));
else start();
