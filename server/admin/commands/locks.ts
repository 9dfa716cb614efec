import { z } from 'zod';
import { createLocalLockProvider } from '../../adapters/locks/local.ts';
import { lockStatus } from '../../doors/index.ts';
import { defineCommand, jsonOption, table, wholeNumber } from '../command.ts';

export const lockCommands = {
  'locks status': defineCommand({
    usage: 'locks status [--branch <id>] [--json]',
    summary:
      'Lists each door of each branch: online, battery, last device event, and its codes counted by state (pending, programming, set, failed, revoking, revoked).',
    schema: z.object({ branch: wholeNumber({ min: 1 }).optional(), ...jsonOption }),
    async run(input, context) {
      const provider = context.lockProvider ?? createLocalLockProvider(context.db);
      const doors = await lockStatus(context.db, provider, input.branch);
      if (input.json) {
        context.io.out(JSON.stringify(doors, null, 2));
        return;
      }
      table(
        context.io,
        doors.map((door) => ({
          branch: `${door.branch_id} ${door.branch}`,
          door: door.device_id,
          online: door.online === null ? '?' : door.online ? 'yes' : 'NO',
          battery: door.battery_level === null ? '' : `${Math.round(door.battery_level * 100)}%`,
          last_event: door.last_event ?? '',
          codes: Object.entries(door.codes)
            .map(([state, count]) => `${state} ${count}`)
            .join(', '),
          note: door.provider_error ? `provider unreachable: ${door.provider_error}` : '',
        })),
        false,
      );
    },
  }),
};
