import { Trans } from '@lingui/react/macro';
import { Button } from '../ui/Button.tsx';
import { useBranches, useLoggedIn, useRuntime } from '../app/context.tsx';
import { isNative } from '../platform/native.ts';
import { SECTION_IDS, useGoToSection, useOpenModal } from '../shell/navigation.ts';

function EarlyBirdBanner() {
  const openModal = useOpenModal();
  return (
    <button type="button" className="early-bird" onClick={() => openModal({ modal: 'auth', tab: 'login' })}>
      <span className="early-bird__tag">
        <Trans>Oferta de lançamento</Trans>
      </span>
      <span className="early-bird__text">
        <Trans id="early-bird-promo">
          Registe-se antes da abertura e ganhe um cupão de 10% nas suas 3 primeiras reservas.
        </Trans>
      </span>
      <span className="early-bird__arrow" aria-hidden="true">
        →
      </span>
    </button>
  );
}

export function Hero() {
  const { config } = useRuntime();
  // The offer is to register: a member already signed in has nothing to do with it (its coupon is offered in the
  // booking modal to those it applies to), and the login it opens would not open for them.
  const loggedIn = useLoggedIn();
  const { branches, ready } = useBranches();
  const goToSection = useGoToSection();
  return (
    <section id={SECTION_IDS.home} className="hero" aria-labelledby="home-title">
      <div className="hero__backdrop" aria-hidden="true" />
      <div className="hero__inner">
        {config.earlyBirdEnabled && !loggedIn && <EarlyBirdBanner />}
        <p className="eyebrow">
          <Trans>Ginásio privado · Aberto 24/7</Trans>
        </p>
        <h1 id="home-title" className="hero__title">
          <span>
            <Trans>O seu ginásio.</Trans>
          </span>{' '}
          <span>
            <Trans>O seu horário.</Trans>
          </span>{' '}
          <span className="hero__title-accent">
            <Trans>O seu treinador pessoal de IA.</Trans>
          </span>
        </h1>
        <p className="hero__lead">
          <Trans>
            Reserve um ginásio inteiro só para si, à hora. Sem mensalidades, sem filas, sem olhares — só o seu
            treino.
          </Trans>
        </p>
        <div className="hero__actions">
          {/* Its place is kept (hidden) until the branches arrive, so their arrival moves nothing on the page. */}
          {(branches.length > 0 || !ready) && (
            <Button
              size="lg"
              className={ready ? undefined : 'hero__pending'}
              onClick={() => goToSection(SECTION_IDS.branches)}
            >
              <Trans>Ver os nossos espaços</Trans>
            </Button>
          )}
          {!isNative && (
            <Button size="lg" variant="ghost" onClick={() => goToSection(SECTION_IDS.how)}>
              <Trans>Como funciona</Trans>
            </Button>
          )}
        </div>
        <dl className="hero__facts">
          <div>
            <dt>24/7</dt>
            <dd>
              <Trans>aberto todos os dias</Trans>
            </dd>
          </div>
          <div>
            <dt>0 €</dt>
            <dd>
              <Trans>de mensalidade</Trans>
            </dd>
          </div>
          <div>
            <dt>100%</dt>
            <dd>
              <Trans>privado, só para si</Trans>
            </dd>
          </div>
        </dl>
      </div>
    </section>
  );
}
