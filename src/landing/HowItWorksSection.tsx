import { Trans } from '@lingui/react/macro';
import { SECTION_IDS } from '../shell/navigation.ts';
import { Section, SectionCard } from './Section.tsx';

export function HowItWorksSection() {
  return (
    <Section
      id={SECTION_IDS.how}
      eyebrow={<Trans>Como funciona</Trans>}
      title={<Trans>Do clique ao treino em 4 passos</Trans>}
    >
      <ol className="steps">
        <SectionCard block="step" marker="01" title={<Trans>Crie a sua conta</Trans>}>
          <Trans>Registe-se e confirme o seu e-mail e o seu número de telemóvel.</Trans>
        </SectionCard>
        <SectionCard block="step" marker="02" title={<Trans>Escolha espaço e horário</Trans>}>
          <Trans>Veja a disponibilidade em tempo real e selecione um ou mais slots.</Trans>
        </SectionCard>
        <SectionCard block="step" marker="03" title={<Trans>Pague online</Trans>}>
          <Trans>Pagamento antecipado e seguro com cartão. Pode aplicar um cupão de desconto.</Trans>
        </SectionCard>
        <SectionCard block="step" marker="04" title={<Trans>Receba o código e treine</Trans>}>
          <Trans>Cerca de 30 minutos antes, o código da porta chega por e-mail e SMS.</Trans>
        </SectionCard>
      </ol>
    </Section>
  );
}
