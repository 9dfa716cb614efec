import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Modal, Stack, Textarea, type MantineSpacing } from '@mantine/core';
import { useDraft } from '../hooks.ts';
import { useState, type ComponentType, type ReactNode } from 'react';
import { type Feedback } from '../../../machines/feedback.ts';
import { ErrorBox } from '../feedback.tsx';

// The console's dialogs: one per page at a time, a reason asked for a change, confirm and cancel actions.

/** The reason an operator gives for a change; it goes to the audit log. */
export function ReasonField({
  value,
  onChange,
  description,
}: {
  value: string;
  onChange: (value: string) => void;
  description?: string;
}) {
  const { t } = useLingui();
  return (
    <Textarea
      label={t`Motivo`}
      description={description}
      required
      maxLength={500}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}

/** What a page gives the dialog it opens: the record it acts on, closing it, and what to do once it is done. */
export type DialogProps<Detail> = { detail: Detail; onClose: () => void; onDone: () => void };

/**
 * The dialogs a record's page opens (by name, one at a time) on its record: `open` one, `render` the one open.
 * Done, it closes and the page reloads (`reload`).
 */
export function usePageDialogs<Detail, Name extends string>(
  dialogs: Record<Name, ComponentType<DialogProps<Detail>>>,
  reload: () => void,
) {
  const [open, setOpen] = useState<Name | null>(null);
  const Shown: ComponentType<DialogProps<Detail>> | null = open === null ? null : dialogs[open];
  return {
    open: (name: Name) => setOpen(name),
    render: (detail: Detail) =>
      Shown && (
        <Shown
          detail={detail}
          onClose={() => setOpen(null)}
          onDone={() => {
            setOpen(null);
            reload();
          }}
        />
      ),
  };
}

/** A console dialog: open while it is shown, centred, its close button named in the console's language. */
export function Dialog({
  title,
  onClose,
  children,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useLingui();
  return (
    <Modal opened onClose={onClose} title={title} centered closeButtonProps={{ 'aria-label': t`Fechar` }}>
      {children}
    </Modal>
  );
}

/** The foot of a dialog: its failure, if any, then Back and the dialog's own action. */
export function DialogActions({
  error,
  onClose,
  children,
}: {
  error: Feedback | null;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <>
      <ErrorBox error={error} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          <Trans>Voltar</Trans>
        </Button>
        {children}
      </Group>
    </>
  );
}

/**
 * A dialog that runs one change with the reason the operator gives for it (ReasonField): what `children` ask
 * first, then the reason, Back and the change's button (`action`), which runs `onRun` with the reason once the
 * dialog is `ready` and the reason given.
 */
export function ReasonDialog({
  title,
  task,
  action,
  color,
  gap = 'sm',
  ready = true,
  onRun,
  onClose,
  children,
}: {
  title: string;
  task: TaskLike;
  action: ReactNode;
  color?: string;
  gap?: MantineSpacing;
  ready?: boolean;
  onRun: (reason: string) => void;
  onClose: () => void;
  children?: ReactNode;
}) {
  const draft = useDraft({ reason: '' });
  const { reason } = draft.fields;
  return (
    <Dialog onClose={onClose} title={title}>
      <Stack gap={gap}>
        {children}
        <ReasonField value={reason} onChange={(value) => draft.change({ reason: value })} />
        <DialogActions error={task.state.context.error} onClose={onClose}>
          <Button
            color={color}
            disabled={!ready || reason.trim() === ''}
            loading={task.state.matches('running')}
            onClick={() => onRun(reason.trim())}
          >
            {action}
          </Button>
        </DialogActions>
      </Stack>
    </Dialog>
  );
}

export type TaskLike = {
  state: { matches: (value: 'running') => boolean; context: { error: Feedback | null } };
  dismiss: () => void;
};

/** The answer to a change asked inline (remove, reopen, unblock): its failure, then Back and the confirmation. */
export function ConfirmActions({
  task,
  disabled,
  onConfirm,
  children,
}: {
  task: TaskLike;
  disabled?: boolean;
  onConfirm: () => void;
  children: ReactNode;
}) {
  return (
    <>
      <ErrorBox error={task.state.context.error} />
      <Group>
        <Button variant="default" size="xs" onClick={task.dismiss}>
          <Trans>Voltar</Trans>
        </Button>
        <Button size="xs" disabled={disabled} loading={task.state.matches('running')} onClick={onConfirm}>
          {children}
        </Button>
      </Group>
    </>
  );
}
