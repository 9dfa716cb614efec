import type { ReactNode } from 'react';
import { Frame, LandingFrameContext } from '../shell/Frame.tsx';
import { NavigationContext, type Navigation } from '../shell/navigation.ts';
import { Landing } from './Landing.tsx';

/**
 * The landing in its page frame, without the router: the build prerenders it (src/prerender.tsx) and the browser
 * adopts that HTML with it (src/app/LandingApp.tsx), so the landing is interactive before the router is loaded.
 * `modals`: the router's modal layer once it is there (nothing before, as in the prerendered page).
 */
export function LandingPage({ navigation, modals }: { navigation: Navigation; modals: ReactNode }) {
  return (
    <NavigationContext value={navigation}>
      <LandingFrameContext value>
        <Frame page="main" modals={modals}>
          <Landing />
        </Frame>
      </LandingFrameContext>
    </NavigationContext>
  );
}
