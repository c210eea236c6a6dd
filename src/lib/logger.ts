import pino from 'pino';

export type Logger = pino.Logger;

/** JSON lines. Credentials never reach a log line: no headers are logged and these paths are censored. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'crm' },
      redact: {
        paths: [
          'authorization',
          'password',
          'token',
          'secret',
          '*.authorization',
          '*.password',
          '*.token',
          '*.secret',
          '*.identity_secret',
          '*.server_key',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
