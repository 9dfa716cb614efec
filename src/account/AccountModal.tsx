import '../auth/mantine-styles.ts';
import { Trans, useLingui } from '@lingui/react/macro';
import { Modal, Tabs } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { accountTab } from '../../machines/modal-search.ts';
import { useModalSearch, useUpdateModalSearch } from '../auth/useModalSearch.ts';
import { MantineLayer } from '../ui/MantineLayer.tsx';
import { MyBookings } from './MyBookings.tsx';
import { Profile } from './Profile.tsx';
import { Settings } from './Settings.tsx';
import { Wallet } from './Wallet.tsx';

/**
 * The account modal (docs/decisions.md, 'Client'): My bookings (default), the wallet (issue 31), Profile and
 * Settings, each reachable by URL.
 */
export default function AccountModal({ hidden }: { hidden: boolean }) {
  const { t } = useLingui();
  const search = useModalSearch();
  const updateSearch = useUpdateModalSearch();
  const tab = search.account_tab ?? 'myBookings';
  // On a phone the account is a screen of its own (long booking lists need the whole height).
  const phone = useMediaQuery('(max-width: 36em)') ?? false;

  const close = () => updateSearch(({ account_tab: _closed, ...rest }) => rest);

  return (
    <MantineLayer>
      <Modal
        opened={!hidden}
        onClose={() => void close()}
        title={t`A minha conta`}
        size="xl"
        fullScreen={phone}
        zIndex={200}
        closeButtonProps={{ 'aria-label': t`Fechar` }}
        classNames={{ title: 'auth-modal__title', content: 'auth-modal' }}
      >
        <Tabs
          value={tab}
          keepMounted={false}
          onChange={(value) => {
            const next = accountTab.safeParse(value);
            if (!next.success) return;
            // Each tab is its own URL (docs/decisions.md, 'Client'), a history entry of its own.
            void updateSearch((previous) => ({ ...previous, account_tab: next.data }), true);
          }}
        >
          <Tabs.List mb="md">
            <Tabs.Tab value="myBookings">
              <Trans>As minhas reservas</Trans>
            </Tabs.Tab>
            <Tabs.Tab value="wallet">
              <Trans>Carteira</Trans>
            </Tabs.Tab>
            <Tabs.Tab value="profile">
              <Trans>Perfil</Trans>
            </Tabs.Tab>
            <Tabs.Tab value="settings">
              <Trans>Definições</Trans>
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="myBookings">
            <MyBookings />
          </Tabs.Panel>
          <Tabs.Panel value="wallet">
            <Wallet />
          </Tabs.Panel>
          <Tabs.Panel value="profile">
            <Profile />
          </Tabs.Panel>
          <Tabs.Panel value="settings">
            <Settings onClose={close} />
          </Tabs.Panel>
        </Tabs>
      </Modal>
    </MantineLayer>
  );
}
