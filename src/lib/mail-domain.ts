/** The domain of a mail address or of `Name <address>` ('localhost' when it holds none): Message-IDs and reply addresses are made at it. */
export const messageIdDomain = (from: string) => /@([^@>\s]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
