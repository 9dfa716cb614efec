import { Trans } from '@lingui/react/macro';
import { SECTION_IDS } from '../shell/navigation.ts';
import { Section } from './Section.tsx';

export function AiTrainerSection() {
  return (
    <Section id={SECTION_IDS.ai} className="section--ai">
      <div className="ai">
        <div className="ai__copy">
          <p className="eyebrow">
            <Trans>Treinador IA</Trans>{' '}
            <span className="badge">
              <Trans>Brevemente</Trans>
            </span>
          </p>
          <h2 id={`${SECTION_IDS.ai}-title`} className="section__title">
            <Trans>O seu treinador pessoal de IA, incluído.</Trans>
          </h2>
          <p className="section__intro">
            <Trans>
              Um treinador virtual acompanha as suas sessões: prepara o treino certo para si e corrige-o
              enquanto treina.
            </Trans>
          </p>
          <ul className="checklist">
            <li>
              <Trans>Treinos personalizados para os seus objetivos</Trans>
            </li>
            <li>
              <Trans>Feedback e dicas em tempo real durante a sessão</Trans>
            </li>
            <li>
              <Trans>Gratuito para todos os clientes</Trans>
            </li>
            <li>
              <Trans>Disponível em breve</Trans>
            </li>
          </ul>
        </div>
        <div className="ai__visual" aria-hidden="true">
          <div className="ai__ring">
            <span className="ai__metric">
              128<small>bpm</small>
            </span>
          </div>
          <div className="ai__chip ai__chip--one">
            <Trans>Série 3 de 4 · 12 repetições</Trans>
          </div>
          <div className="ai__chip ai__chip--two">
            <Trans>Mantenha as costas direitas</Trans>
          </div>
        </div>
      </div>
    </Section>
  );
}
