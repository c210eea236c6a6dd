// Where an email's links lead: the email link routes (under /public/v1) that its tokens open, and
// the two pages a person reads (the unsubscribe page, which asks first, and the preference centre),
// server-rendered by this service. Written into each email by the sender, never taken from a request.

export const EMAIL_LINKS = '/public/v1/email';
export const UNSUBSCRIBE_PAGE = '/unsubscribe';
export const PREFERENCES_PAGE = '/preferences';

export const emailAddresses = (baseUrl: string) => ({
  click: (token: string) => `${baseUrl}${EMAIL_LINKS}/c/${token}`,
  open: (token: string) => `${baseUrl}${EMAIL_LINKS}/o/${token}`,
  /** Followed (GET) it leads to the page that asks; posted (RFC 8058 one-click, List-Unsubscribe) it unsubscribes. */
  unsubscribe: (token: string) => `${baseUrl}${EMAIL_LINKS}/unsubscribe/${token}`,
  unsubscribePage: (token: string) => `${baseUrl}${UNSUBSCRIBE_PAGE}/${token}`,
  preferencesPage: (token: string) => `${baseUrl}${PREFERENCES_PAGE}/${token}`,
});
