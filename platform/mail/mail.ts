/** A plain-text mail, as sendMail sends it and the demo mailbox keeps it. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}
