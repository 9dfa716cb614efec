import { Trans } from '@lingui/react/macro';
import { useRuntime } from '../app/context.tsx';
import { SECTION_IDS } from '../shell/navigation.ts';
import { Accordion } from '../ui/Accordion.tsx';
import { useRefundPolicyText } from '../ui/useRefundPolicyText.ts';
import { Section } from './Section.tsx';

/** Four questions; one answer open at a time (opening one closes the other). */
export function FaqSection() {
  const { site } = useRuntime();
  // The policy the page came with (the server wrote the same words into the prerendered page), then the live one.
  const refundRatiosText = useRefundPolicyText() ?? site.refundPolicyUntilKnown;
  return (
    <Section
      id={SECTION_IDS.faq}
      eyebrow={<Trans>Perguntas frequentes</Trans>}
      title={<Trans>Tem dúvidas?</Trans>}
    >
      <Accordion
        className="faq"
        items={[
          {
            value: 'membership',
            title: <Trans>Tenho de ser sócio ou pagar mensalidade?</Trans>,
            content: (
              <Trans>
                Não. Não há mensalidades, quotas nem taxa de inscrição: cria a conta gratuitamente e paga
                apenas os slots que reservar.
              </Trans>
            ),
          },
          {
            value: 'guests',
            title: <Trans>Posso levar outras pessoas?</Trans>,
            content: (
              <Trans>
                Sim. Durante a reserva o ginásio inteiro é seu: traga amigos, família ou os seus clientes.
                Menores de 15 anos têm de estar acompanhados por um adulto e não são permitidos animais.
              </Trans>
            ),
          },
          {
            value: 'access',
            title: <Trans>Como entro no ginásio?</Trans>,
            content: (
              <Trans>
                Cerca de 30 minutos antes da sessão recebe, por e-mail e por SMS, um código único para a
                fechadura inteligente da porta. O código só funciona durante a sua reserva.
              </Trans>
            ),
          },
          {
            value: 'cancel',
            title: <Trans>Posso cancelar uma reserva?</Trans>,
            content: (
              <Trans>
                Sim, em «As minhas reservas». O reembolso depende da antecedência com que cancela:{' '}
                {refundRatiosText}
              </Trans>
            ),
          },
        ]}
      />
    </Section>
  );
}
