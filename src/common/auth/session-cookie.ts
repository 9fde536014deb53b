/** Name of the session cookie; Metabase's, so existing clients keep working. */
export const SESSION_COOKIE = 'metabase.SESSION';
