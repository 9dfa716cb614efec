import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { SECTION_IDS } from '../shell/navigation.ts';
import { Section, SectionCard } from './Section.tsx';
import { LineIcon } from '../ui/LineIcon.tsx';

const ICONS = {
  space: 'M3 21V8l9-5 9 5v13M9 21v-7h6v7',
  clock: 'M12 7v5l3 2M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0z',
  wallet: 'M3 7h15a3 3 0 0 1 3 3v7a3 3 0 0 1-3 3H3zM3 7l12-4v4M17 14h.01',
  people:
    'M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM2 21c0-3.9 3.1-6 7-6s7 2.1 7 6M17 11a3 3 0 1 0 0-6M22 21c0-3-1.8-5-4.5-5.7',
  key: 'M15 7a4 4 0 1 1-3.9 4.9L3 20v-3h3v-3h3l2.1-2.1A4 4 0 0 1 15 7zM16.5 9.5h.01',
  dumbbell: 'M6 7v10M3 9v6M18 7v10M21 9v6M6 12h12',
};

function Feature({
  icon,
  title,
  children,
}: {
  icon: keyof typeof ICONS;
  title: ReactNode;
  children: ReactNode;
}) {
  return (
    <SectionCard block="feature" marker={<LineIcon size={26} path={ICONS[icon]} />} title={title}>
      {children}
    </SectionCard>
  );
}

export function WhySection() {
  return (
    <Section
      id={SECTION_IDS.why}
      eyebrow={<Trans>Porquê um ginásio privado</Trans>}
      title={<Trans>O ginásio inteiro. Só seu.</Trans>}
    >
      <ul className="feature-grid">
        <Feature icon="space" title={<Trans>O espaço todo para si</Trans>}>
          <Trans>
            Sem filas para as máquinas nem olhares curiosos: durante a reserva, ninguém mais entra.
          </Trans>
        </Feature>
        <Feature icon="clock" title={<Trans>Aberto 24 horas, 7 dias</Trans>}>
          <Trans>Treine às seis da manhã ou à meia-noite. O horário quem escolhe é você.</Trans>
        </Feature>
        <Feature icon="wallet" title={<Trans>Sem mensalidades</Trans>}>
          <Trans>Sem quotas, fidelização ou taxa de inscrição. Paga apenas o tempo que reserva.</Trans>
        </Feature>
        <Feature icon="people" title={<Trans>Traga quem quiser</Trans>}>
          <Trans>Treine com amigos, família ou os seus próprios clientes de treino personalizado.</Trans>
        </Feature>
        <Feature icon="key" title={<Trans>Entrada sem chaves</Trans>}>
          <Trans>Recebe um código único da porta por e-mail e SMS cerca de 30 minutos antes da sessão.</Trans>
        </Feature>
        <Feature icon="dumbbell" title={<Trans>Equipamento de qualidade</Trans>}>
          <Trans>Máquinas, pesos livres e zona funcional, limpos e prontos para cada sessão.</Trans>
        </Feature>
      </ul>
    </Section>
  );
}
