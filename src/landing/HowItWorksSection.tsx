import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { SECTION_IDS } from '../shell/navigation.ts';
import { Section } from './Section.tsx';

function Step({ number, title, children }: { number: number; title: ReactNode; children: ReactNode }) {
  return (
    <li className="step">
      <span className="step__number" aria-hidden="true">
        {String(number).padStart(2, '0')}
      </span>
      <h3 className="step__title">{title}</h3>
      <p className="step__text">{children}</p>
    </li>
  );
}

export function HowItWorksSection() {
  return (
    <Section
      id={SECTION_IDS.how}
      eyebrow={<Trans>Como funciona</Trans>}
      title={<Trans>Do clique ao treino em 4 passos</Trans>}
    >
      <ol className="steps">
        <Step number={1} title={<Trans>Crie a sua conta</Trans>}>
          <Trans>Registe-se e confirme o seu e-mail e o seu número de telemóvel.</Trans>
        </Step>
        <Step number={2} title={<Trans>Escolha espaço e horário</Trans>}>
          <Trans>Veja a disponibilidade em tempo real e selecione um ou mais slots.</Trans>
        </Step>
        <Step number={3} title={<Trans>Pague online</Trans>}>
          <Trans>Pagamento antecipado e seguro com cartão. Pode aplicar um cupão de desconto.</Trans>
        </Step>
        <Step number={4} title={<Trans>Receba o código e treine</Trans>}>
          <Trans>Cerca de 30 minutos antes, o código da porta chega por e-mail e SMS.</Trans>
        </Step>
      </ol>
    </Section>
  );
}
