import { Trans, useLingui } from '@lingui/react/macro';
import { Modal, Stack, Text, Title } from '@mantine/core';
import DOMPurify from 'dompurify';
import { useReducer } from 'react';
import type { Branch } from '../../machines/branches.ts';
import type { Locale } from '../i18n/locales.ts';

/** An OpenStreetMap embed around the branch's coordinates, when the branch names no map of its own. */
function mapUrlOf(branch: Branch): string {
  if (branch.map_url) return branch.map_url;
  const { latitude: lat, longitude: lon } = branch;
  const box = [lon - 0.01, lat - 0.006, lon + 0.01, lat + 0.006].join(',');
  return `https://www.openstreetmap.org/export/embed.html?bbox=${box}&layer=mapnik&marker=${lat},${lon}`;
}

// The enlarged image is view state of this tab alone (not part of the booking flow).
function enlargedReducer(_: string | null, image: string | null): string | null {
  return image;
}

export function BranchInformation({ branch, locale }: { branch: Branch; locale: Locale }) {
  const { t } = useLingui();
  const [enlarged, setEnlarged] = useReducer(enlargedReducer, null);
  const description = DOMPurify.sanitize(branch.descriptions_data[locale] ?? '');
  const branchName = branch.name;
  return (
    <Stack gap="lg">
      <div className="branch-description" dangerouslySetInnerHTML={{ __html: description }} />
      {branch.images_urls.length > 0 && (
        <section aria-label={t`Galeria`}>
          <Title order={3} size="h4" mb="xs">
            <Trans>Galeria</Trans>
          </Title>
          <div className="branch-gallery">
            {branch.images_urls.map((image, index) => {
              const number = index + 1;
              return (
                <button
                  key={image}
                  type="button"
                  className="branch-gallery__button"
                  aria-label={t`Ampliar a imagem ${number} de ${branchName}`}
                  onClick={() => setEnlarged(image)}
                >
                  <img
                    className="branch-gallery__image"
                    src={image}
                    alt=""
                    loading="lazy"
                    width="320"
                    height="240"
                  />
                </button>
              );
            })}
          </div>
        </section>
      )}
      <section aria-label={t`Localização`}>
        <Title order={3} size="h4" mb="xs">
          <Trans>Localização</Trans>
        </Title>
        <Text mb="xs">{branch.location}</Text>
        <iframe
          className="branch-map"
          title={t`Mapa de ${branchName}`}
          src={mapUrlOf(branch)}
          loading="lazy"
          referrerPolicy="no-referrer-when-downgrade"
        />
      </section>
      <Modal
        opened={enlarged !== null}
        onClose={() => setEnlarged(null)}
        size="xl"
        zIndex={400}
        centered
        withCloseButton={false}
        title={undefined}
        aria-label={t`Imagem ampliada`}
        padding={0}
      >
        {enlarged && (
          <button
            type="button"
            className="branch-gallery__button"
            aria-label={t`Fechar a imagem`}
            onClick={() => setEnlarged(null)}
          >
            <img className="branch-gallery__enlarged" src={enlarged} alt={branchName} />
          </button>
        )}
      </Modal>
    </Stack>
  );
}
