import { useEffect, useRef } from 'react';
import { useBranches } from '../app/context.tsx';
import { isNative } from '../platform/native.ts';
import { scrollToSection } from '../shell/navigation.ts';
import { AiTrainerSection } from './AiTrainerSection.tsx';
import { BranchesSection } from './BranchesSection.tsx';
import { FaqSection } from './FaqSection.tsx';
import { Hero } from './Hero.tsx';
import { HowItWorksSection } from './HowItWorksSection.tsx';
import { PricingSection } from './PricingSection.tsx';
import { WhySection } from './WhySection.tsx';

/** A `/{lang}#section` address scrolls to its section once the sections that depend on data exist. */
function useInitialHashScroll(ready: boolean) {
  const done = useRef(false);
  useEffect(() => {
    // The address as it is (the landing reads no router; on the router's pages it has the same hash).
    const hash = window.location.hash.slice(1);
    if (!ready || done.current || !hash) return;
    done.current = true;
    requestAnimationFrame(() => scrollToSection(hash));
  }, [ready]);
}

/** docs/decisions.md, 'Client': the landing sections in order, each under its anchor id and condition. */
export function Landing() {
  const { branches, active, ready } = useBranches();
  useInitialHashScroll(ready);
  return (
    <div className={branches.length === 0 ? 'landing landing--empty' : 'landing'}>
      <Hero />
      {!isNative && <WhySection />}
      {!isNative && <AiTrainerSection />}
      {!isNative && <HowItWorksSection />}
      {branches.length > 0 && <BranchesSection branches={branches} showHeader={!isNative} />}
      {!isNative && <FaqSection />}
      {active.length > 0 && !isNative && <PricingSection />}
    </div>
  );
}
