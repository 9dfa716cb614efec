import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { createApiClient } from './api/client.ts';
import type { Locale } from './i18n/locales.ts';
import type { components } from '../openapi/schema.gen.ts';

type Branch = components['schemas']['Branch'];

export function App({ locale }: { locale: Locale }) {
  const { t } = useLingui();
  const [branches, setBranches] = useState<Branch[] | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    createApiClient(locale)
      .GET('/bookings/branches')
      .then(({ data }) => (data ? setBranches(data) : setFailed(true)))
      .catch(() => setFailed(true));
  }, [locale]);

  return (
    <main className="page">
      <img className="logo" src="/logo.svg" alt={t`Logótipo do ginásio privado`} width="160" height="48" />
      <h1>
        <Trans>O seu ginásio. O seu horário. O seu treinador pessoal de IA.</Trans>
      </h1>
      <p>
        <Trans>Reserve um ginásio inteiro só para si, pelo tempo que precisar.</Trans>
      </p>
      <h2>
        <Trans>As nossas filiais</Trans>
      </h2>
      {failed && (
        <p role="alert">
          <Trans>Não foi possível carregar as filiais. Tente novamente mais tarde.</Trans>
        </p>
      )}
      <ul className="branches">
        {branches?.map((branch) => (
          <li key={branch.id}>
            <img src={branch.image} alt="" width="300" height="200" />
            <strong>{branch.name}</strong>
            <span>{branch.location}</span>
            {!branch.active_with_smart_lock && (
              <em>
                <Trans>Brevemente</Trans>
              </em>
            )}
          </li>
        ))}
      </ul>
    </main>
  );
}
