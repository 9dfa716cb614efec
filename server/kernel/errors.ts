import { format, type Locale, type Localised } from './i18n.ts';

/**
 * The one error catalogue. Every error a caller can see has an HTTP status, a stable `code`
 * (for programs) and a `detail` in each of the five interface languages (for people).
 */
export const errorCatalogue = {
  validation_failed: {
    status: 422,
    detail: {
      pt: 'Pedido inválido: {problems}',
      en: 'Invalid request: {problems}',
      fr: 'Requête invalide : {problems}',
      de: 'Ungültige Anfrage: {problems}',
      sk: 'Neplatná požiadavka: {problems}',
    },
  },
  malformed_body: {
    status: 400,
    detail: {
      pt: 'O corpo do pedido não pôde ser lido. Envie JSON ou um formulário válido.',
      en: 'The request body could not be read. Send valid JSON or form data.',
      fr: 'Le corps de la requête est illisible. Envoyez du JSON ou un formulaire valide.',
      de: 'Der Anfrageinhalt konnte nicht gelesen werden. Senden Sie gültiges JSON oder Formulardaten.',
      sk: 'Obsah požiadavky sa nedá prečítať. Pošlite platný JSON alebo formulár.',
    },
  },
  unsupported_media_type: {
    status: 415,
    detail: {
      pt: 'Tipo de conteúdo não suportado.',
      en: 'Unsupported content type.',
      fr: 'Type de contenu non pris en charge.',
      de: 'Nicht unterstützter Inhaltstyp.',
      sk: 'Nepodporovaný typ obsahu.',
    },
  },
  payload_too_large: {
    status: 413,
    detail: {
      pt: 'O pedido é demasiado grande.',
      en: 'The request is too large.',
      fr: 'La requête est trop volumineuse.',
      de: 'Die Anfrage ist zu groß.',
      sk: 'Požiadavka je príliš veľká.',
    },
  },
  not_found: {
    status: 404,
    detail: {
      pt: 'Recurso não encontrado.',
      en: 'Not found.',
      fr: 'Ressource introuvable.',
      de: 'Nicht gefunden.',
      sk: 'Nenájdené.',
    },
  },
  branch_not_found: {
    status: 404,
    detail: {
      pt: 'Filial não encontrada.',
      en: 'Branch not found.',
      fr: 'Salle introuvable.',
      de: 'Standort nicht gefunden.',
      sk: 'Pobočka sa nenašla.',
    },
  },
  invalid_date: {
    status: 400,
    detail: {
      pt: 'A data tem de ser uma data de calendário real no formato AAAA-MM-DD.',
      en: 'The date must be a real calendar date in the format YYYY-MM-DD.',
      fr: 'La date doit être une date réelle au format AAAA-MM-JJ.',
      de: 'Das Datum muss ein gültiges Kalenderdatum im Format JJJJ-MM-TT sein.',
      sk: 'Dátum musí byť skutočný dátum vo formáte RRRR-MM-DD.',
    },
  },
  unauthorized: {
    status: 401,
    detail: {
      pt: 'Sessão inválida ou expirada. Inicie sessão novamente.',
      en: 'Your session is invalid or has expired. Please log in again.',
      fr: 'Session invalide ou expirée. Veuillez vous reconnecter.',
      de: 'Ihre Sitzung ist ungültig oder abgelaufen. Bitte melden Sie sich erneut an.',
      sk: 'Vaša relácia je neplatná alebo vypršala. Prihláste sa znova.',
    },
  },
  rate_limited: {
    status: 429,
    detail: {
      pt: 'Demasiados pedidos. Tente novamente dentro de alguns minutos.',
      en: 'Too many requests. Please try again in a few minutes.',
      fr: 'Trop de requêtes. Réessayez dans quelques minutes.',
      de: 'Zu viele Anfragen. Bitte versuchen Sie es in ein paar Minuten erneut.',
      sk: 'Príliš veľa požiadaviek. Skúste to znova o niekoľko minút.',
    },
  },
  not_implemented: {
    status: 501,
    detail: {
      pt: 'Esta operação ainda não está disponível.',
      en: 'This operation is not available yet.',
      fr: "Cette opération n'est pas encore disponible.",
      de: 'Dieser Vorgang ist noch nicht verfügbar.',
      sk: 'Táto operácia zatiaľ nie je dostupná.',
    },
  },
  service_unavailable: {
    status: 503,
    detail: {
      pt: 'O serviço está temporariamente indisponível. Tente novamente.',
      en: 'The service is temporarily unavailable. Please try again.',
      fr: 'Le service est temporairement indisponible. Veuillez réessayer.',
      de: 'Der Dienst ist vorübergehend nicht verfügbar. Bitte versuchen Sie es erneut.',
      sk: 'Služba je dočasne nedostupná. Skúste to znova.',
    },
  },
  internal_error: {
    status: 500,
    detail: {
      pt: 'Ocorreu um erro inesperado. Tente novamente.',
      en: 'An unexpected error occurred. Please try again.',
      fr: "Une erreur inattendue s'est produite. Veuillez réessayer.",
      de: 'Ein unerwarteter Fehler ist aufgetreten. Bitte versuchen Sie es erneut.',
      sk: 'Vyskytla sa neočakávaná chyba. Skúste to znova.',
    },
  },
  // --- Accounts ---
  invalid_credentials: {
    status: 401,
    detail: {
      pt: 'E-mail ou palavra-passe incorretos.',
      en: 'Incorrect e-mail address or password.',
      fr: 'Adresse e-mail ou mot de passe incorrect.',
      de: 'E-Mail-Adresse oder Passwort ist falsch.',
      sk: 'Nesprávna e-mailová adresa alebo heslo.',
    },
  },
  account_not_verified: {
    status: 403,
    detail: {
      pt: 'Confirme a sua conta antes de iniciar sessão.',
      en: 'Please verify your account before logging in.',
      fr: 'Veuillez confirmer votre compte avant de vous connecter.',
      de: 'Bitte bestätigen Sie Ihr Konto, bevor Sie sich anmelden.',
      sk: 'Pred prihlásením si overte účet.',
    },
  },
  passwords_do_not_match: {
    status: 400,
    detail: {
      pt: 'As palavras-passe não coincidem.',
      en: 'Passwords do not match.',
      fr: 'Les mots de passe ne correspondent pas.',
      de: 'Die Passwörter stimmen nicht überein.',
      sk: 'Heslá sa nezhodujú.',
    },
  },
  password_too_short: {
    status: 400,
    detail: {
      pt: 'A palavra-passe tem de ter pelo menos {min} caracteres.',
      en: 'The password must be at least {min} characters long.',
      fr: 'Le mot de passe doit comporter au moins {min} caractères.',
      de: 'Das Passwort muss mindestens {min} Zeichen lang sein.',
      sk: 'Heslo musí mať aspoň {min} znakov.',
    },
  },
  password_too_long: {
    status: 400,
    detail: {
      pt: 'A palavra-passe pode ter no máximo {max} caracteres.',
      en: 'The password can be at most {max} characters long.',
      fr: 'Le mot de passe peut comporter au maximum {max} caractères.',
      de: 'Das Passwort darf höchstens {max} Zeichen lang sein.',
      sk: 'Heslo môže mať najviac {max} znakov.',
    },
  },
  password_too_common: {
    status: 400,
    detail: {
      pt: 'Esta palavra-passe é demasiado comum e fácil de adivinhar. Escolha outra.',
      en: 'This password is too common and easy to guess. Please choose another one.',
      fr: 'Ce mot de passe est trop courant et facile à deviner. Veuillez en choisir un autre.',
      de: 'Dieses Passwort ist zu verbreitet und leicht zu erraten. Bitte wählen Sie ein anderes.',
      sk: 'Toto heslo je príliš bežné a ľahko uhádnuteľné. Zvoľte si iné.',
    },
  },
  invalid_phone_number: {
    status: 400,
    detail: {
      pt: 'O número de telefone tem de incluir o indicativo do país e ser válido (por exemplo, +351912345678).',
      en: 'The phone number must include the country code and be valid (for example +351912345678).',
      fr: 'Le numéro de téléphone doit comporter l’indicatif du pays et être valide (par exemple +351912345678).',
      de: 'Die Telefonnummer muss die Landesvorwahl enthalten und gültig sein (zum Beispiel +351912345678).',
      sk: 'Telefónne číslo musí obsahovať predvoľbu krajiny a byť platné (napríklad +351912345678).',
    },
  },
  invalid_name: {
    status: 400,
    detail: {
      pt: 'Indique o nome próprio e o apelido.',
      en: 'Please enter your first and last name.',
      fr: 'Veuillez indiquer votre prénom et votre nom.',
      de: 'Bitte geben Sie Vor- und Nachnamen an.',
      sk: 'Zadajte meno a priezvisko.',
    },
  },
  email_in_use: {
    status: 409,
    detail: {
      pt: 'Já existe uma conta com este e-mail. Inicie sessão ou recupere a palavra-passe.',
      en: 'An account with this e-mail address already exists. Log in or reset your password.',
      fr: 'Un compte existe déjà avec cette adresse e-mail. Connectez-vous ou réinitialisez votre mot de passe.',
      de: 'Es gibt bereits ein Konto mit dieser E-Mail-Adresse. Melden Sie sich an oder setzen Sie Ihr Passwort zurück.',
      sk: 'Účet s touto e-mailovou adresou už existuje. Prihláste sa alebo si obnovte heslo.',
    },
  },
  phone_in_use: {
    status: 409,
    detail: {
      pt: 'Este número de telefone já está associado a outra conta.',
      en: 'This phone number is already used by another account.',
      fr: 'Ce numéro de téléphone est déjà utilisé par un autre compte.',
      de: 'Diese Telefonnummer wird bereits von einem anderen Konto verwendet.',
      sk: 'Toto telefónne číslo už používa iný účet.',
    },
  },
  contact_blocked: {
    status: 403,
    detail: {
      pt: 'Não é possível criar uma conta com este e-mail ou número de telefone. Contacte-nos para mais informações.',
      en: 'An account cannot be created with this e-mail address or phone number. Please contact us for more information.',
      fr: 'Impossible de créer un compte avec cette adresse e-mail ou ce numéro de téléphone. Contactez-nous pour plus d’informations.',
      de: 'Mit dieser E-Mail-Adresse oder Telefonnummer kann kein Konto angelegt werden. Bitte kontaktieren Sie uns für weitere Informationen.',
      sk: 'S touto e-mailovou adresou alebo telefónnym číslom nie je možné vytvoriť účet. Pre viac informácií nás kontaktujte.',
    },
  },
  method_not_allowed: {
    status: 405,
    detail: {
      pt: 'Este endereço não aceita este método. Veja o cabeçalho Allow.',
      en: 'This address does not take this method. See the Allow header.',
      fr: 'Cette adresse n’accepte pas cette méthode. Voir l’en-tête Allow.',
      de: 'Diese Adresse akzeptiert diese Methode nicht. Siehe den Allow-Header.',
      sk: 'Táto adresa neprijíma túto metódu. Pozrite hlavičku Allow.',
    },
  },
  invalid_verification_code: {
    status: 400,
    detail: {
      pt: 'Este código é inválido ou já foi utilizado.',
      en: 'This code is invalid or has already been used.',
      fr: 'Ce code est invalide ou a déjà été utilisé.',
      de: 'Dieser Code ist ungültig oder wurde bereits verwendet.',
      sk: 'Tento kód je neplatný alebo už bol použitý.',
    },
  },
  verification_code_expired: {
    status: 400,
    detail: {
      pt: 'Este código expirou. Peça um novo código.',
      en: 'This code has expired. Please ask for a new one.',
      fr: 'Ce code a expiré. Veuillez en demander un nouveau.',
      de: 'Dieser Code ist abgelaufen. Bitte fordern Sie einen neuen an.',
      sk: 'Platnosť tohto kódu vypršala. Vyžiadajte si nový.',
    },
  },
  url_too_long: {
    status: 414,
    detail: {
      pt: 'O endereço do pedido é demasiado longo.',
      en: 'The request address is too long.',
      fr: 'L’adresse de la requête est trop longue.',
      de: 'Die Adresse der Anfrage ist zu lang.',
      sk: 'Adresa požiadavky je príliš dlhá.',
    },
  },
  bad_url: {
    status: 400,
    detail: {
      pt: 'O endereço do pedido não é válido.',
      en: 'The request address is not valid.',
      fr: 'L’adresse de la requête n’est pas valide.',
      de: 'Die Adresse der Anfrage ist ungültig.',
      sk: 'Adresa požiadavky nie je platná.',
    },
  },
  invalid_reset_token: {
    status: 400,
    detail: {
      pt: 'Esta ligação de recuperação é inválida, expirou ou já foi utilizada. Peça uma nova.',
      en: 'This password reset link is invalid, has expired or has already been used. Please request a new one.',
      fr: 'Ce lien de réinitialisation est invalide, a expiré ou a déjà été utilisé. Veuillez en demander un nouveau.',
      de: 'Dieser Link zum Zurücksetzen ist ungültig, abgelaufen oder wurde bereits verwendet. Bitte fordern Sie einen neuen an.',
      sk: 'Tento odkaz na obnovenie hesla je neplatný, vypršal alebo už bol použitý. Vyžiadajte si nový.',
    },
  },
  // --- Bookings and payments ---
  invalid_coupon: {
    status: 404,
    detail: {
      pt: 'Código de cupão inválido.',
      en: 'Invalid coupon code.',
      fr: 'Code promo invalide.',
      de: 'Ungültiger Gutscheincode.',
      sk: 'Neplatný kód kupónu.',
    },
  },
  booking_requires_verification: {
    status: 403,
    detail: {
      pt: 'Confirme o seu e-mail e o seu número de telefone antes de reservar.',
      en: 'Please verify your e-mail address and phone number before booking.',
      fr: 'Veuillez confirmer votre adresse e-mail et votre numéro de téléphone avant de réserver.',
      de: 'Bitte bestätigen Sie Ihre E-Mail-Adresse und Telefonnummer, bevor Sie buchen.',
      sk: 'Pred rezerváciou overte svoju e-mailovú adresu a telefónne číslo.',
    },
  },
  booking_client_blocked: {
    status: 403,
    detail: {
      pt: 'Esta conta não pode fazer reservas. Contacte-nos para mais informações.',
      en: 'This account cannot make bookings. Please contact us for more information.',
      fr: 'Ce compte ne peut pas effectuer de réservations. Contactez-nous pour plus d’informations.',
      de: 'Mit diesem Konto sind keine Buchungen möglich. Bitte kontaktieren Sie uns für weitere Informationen.',
      sk: 'Tento účet nemôže vytvárať rezervácie. Pre viac informácií nás kontaktujte.',
    },
  },
  booking_account_closed: {
    status: 403,
    detail: {
      pt: 'Esta conta foi eliminada.',
      en: 'This account has been deleted.',
      fr: 'Ce compte a été supprimé.',
      de: 'Dieses Konto wurde gelöscht.',
      sk: 'Tento účet bol odstránený.',
    },
  },
  slot_not_found: {
    status: 404,
    detail: {
      pt: 'Horário não encontrado.',
      en: 'Time slot not found.',
      fr: 'Créneau introuvable.',
      de: 'Zeitfenster nicht gefunden.',
      sk: 'Časový úsek sa nenašiel.',
    },
  },
  slot_unavailable: {
    status: 409,
    detail: {
      pt: 'Um dos horários escolhidos já não está disponível. Escolha outro horário.',
      en: 'One of the chosen time slots is no longer available. Please choose another.',
      fr: 'L’un des créneaux choisis n’est plus disponible. Veuillez en choisir un autre.',
      de: 'Eines der gewählten Zeitfenster ist nicht mehr verfügbar. Bitte wählen Sie ein anderes.',
      sk: 'Jeden z vybraných časových úsekov už nie je dostupný. Vyberte si iný.',
    },
  },
  slot_started: {
    status: 409,
    detail: {
      pt: 'Um dos horários escolhidos já começou.',
      en: 'One of the chosen time slots has already started.',
      fr: 'L’un des créneaux choisis a déjà commencé.',
      de: 'Eines der gewählten Zeitfenster hat bereits begonnen.',
      sk: 'Jeden z vybraných časových úsekov sa už začal.',
    },
  },
  branch_not_bookable: {
    status: 409,
    detail: {
      pt: 'Esta filial ainda não aceita reservas.',
      en: 'This branch does not take bookings yet.',
      fr: 'Cette salle n’accepte pas encore de réservations.',
      de: 'Dieser Standort nimmt noch keine Buchungen an.',
      sk: 'Táto pobočka zatiaľ neprijíma rezervácie.',
    },
  },
  slots_of_several_branches: {
    status: 400,
    detail: {
      pt: 'Uma reserva só pode incluir horários de uma filial.',
      en: 'One booking can only include time slots of one branch.',
      fr: 'Une réservation ne peut inclure que des créneaux d’une seule salle.',
      de: 'Eine Buchung kann nur Zeitfenster eines Standorts enthalten.',
      sk: 'Jedna rezervácia môže obsahovať len časové úseky jednej pobočky.',
    },
  },
  price_changed: {
    status: 409,
    detail: {
      pt: 'O preço mudou: o total é agora {total}. Reveja a sua reserva.',
      en: 'The price has changed: the total is now {total}. Please review your booking.',
      fr: 'Le prix a changé : le total est désormais de {total}. Veuillez vérifier votre réservation.',
      de: 'Der Preis hat sich geändert: Die Summe beträgt jetzt {total}. Bitte prüfen Sie Ihre Buchung.',
      sk: 'Cena sa zmenila: celková suma je teraz {total}. Skontrolujte si rezerváciu.',
    },
  },
  payment_provider_unavailable: {
    status: 503,
    detail: {
      pt: 'O serviço de pagamentos está indisponível. Nada foi cobrado; tente novamente.',
      en: 'The payment service is unavailable. Nothing was charged; please try again.',
      fr: 'Le service de paiement est indisponible. Rien n’a été débité ; veuillez réessayer.',
      de: 'Der Zahlungsdienst ist nicht erreichbar. Es wurde nichts belastet; bitte versuchen Sie es erneut.',
      sk: 'Platobná služba je nedostupná. Nič sa nestrhlo; skúste to znova.',
    },
  },
  booking_not_found: {
    status: 404,
    detail: {
      pt: 'Reserva não encontrada.',
      en: 'Booking not found.',
      fr: 'Réservation introuvable.',
      de: 'Buchung nicht gefunden.',
      sk: 'Rezervácia sa nenašla.',
    },
  },
  booking_not_cancelable: {
    status: 409,
    detail: {
      pt: 'Esta reserva já não pode ser cancelada.',
      en: 'This booking can no longer be cancelled.',
      fr: 'Cette réservation ne peut plus être annulée.',
      de: 'Diese Buchung kann nicht mehr storniert werden.',
      sk: 'Túto rezerváciu už nie je možné zrušiť.',
    },
  },
  refund_changed: {
    status: 409,
    detail: {
      pt: 'O valor do reembolso mudou. Atualize a lista e tente novamente.',
      en: 'The refund amount has changed. Please refresh the list and try again.',
      fr: 'Le montant du remboursement a changé. Actualisez la liste et réessayez.',
      de: 'Der Erstattungsbetrag hat sich geändert. Bitte aktualisieren Sie die Liste und versuchen Sie es erneut.',
      sk: 'Suma vrátenia sa zmenila. Obnovte zoznam a skúste to znova.',
    },
  },
  checkout_session_not_found: {
    status: 404,
    detail: {
      pt: 'Sessão de pagamento não encontrada.',
      en: 'Checkout session not found.',
      fr: 'Session de paiement introuvable.',
      de: 'Bezahlsitzung nicht gefunden.',
      sk: 'Platobná relácia sa nenašla.',
    },
  },
  checkout_session_closed: {
    status: 409,
    detail: {
      pt: 'Esta sessão de pagamento já terminou.',
      en: 'This checkout session is no longer open.',
      fr: 'Cette session de paiement n’est plus ouverte.',
      de: 'Diese Bezahlsitzung ist nicht mehr offen.',
      sk: 'Táto platobná relácia už nie je otvorená.',
    },
  },
  invalid_webhook_signature: {
    status: 400,
    detail: {
      pt: 'Assinatura do webhook inválida.',
      en: 'Invalid webhook signature.',
      fr: 'Signature du webhook invalide.',
      de: 'Ungültige Webhook-Signatur.',
      sk: 'Neplatný podpis webhooku.',
    },
  },
  invalid_webhook_event: {
    status: 400,
    detail: {
      pt: 'O evento do webhook não pode ser lido: falta-lhe a identificação ou a validade da sessão de pagamento.',
      en: 'The webhook event cannot be read: its checkout session lacks an id or an expiry.',
      fr: 'L’événement du webhook est illisible : sa session de paiement n’a pas d’identifiant ou d’échéance.',
      de: 'Das Webhook-Ereignis ist nicht lesbar: Seiner Bezahlsitzung fehlen die Kennung oder der Ablauf.',
      sk: 'Udalosť webhooku sa nedá prečítať: jej platobnej relácii chýba identifikátor alebo platnosť.',
    },
  },
  code_not_available: {
    status: 409,
    detail: {
      pt: 'O código da porta só pode ser reenviado desde 30 minutos antes do início até ao fim da sua validade.',
      en: 'The door code can be sent again from 30 minutes before the start until it stops opening the door.',
      fr: 'Le code de la porte peut être renvoyé de 30 minutes avant le début jusqu’à la fin de sa validité.',
      de: 'Der Türcode kann ab 30 Minuten vor Beginn erneut gesendet werden, bis er die Tür nicht mehr öffnet.',
      sk: 'Kód od dverí možno znova poslať od 30 minút pred začiatkom až do konca jeho platnosti.',
    },
  },
  booking_not_movable: {
    status: 409,
    detail: {
      pt: 'Esta reserva já não pode ser mudada: só uma reserva paga pode mudar de horário, e só enquanto faltarem mais de {hours} horas para o início.',
      en: 'This booking can no longer be moved: only a paid booking can move, and only while its start is more than {hours} hours away.',
      fr: 'Cette réservation ne peut plus être déplacée : seule une réservation payée peut l’être, et seulement plus de {hours} heures avant son début.',
      de: 'Diese Buchung kann nicht mehr verschoben werden: Nur eine bezahlte Buchung kann verschoben werden, und nur solange ihr Beginn mehr als {hours} Stunden entfernt ist.',
      sk: 'Túto rezerváciu už nie je možné presunúť: presunúť sa dá iba zaplatená rezervácia, a to len viac ako {hours} hodín pred jej začiatkom.',
    },
  },
  move_target_invalid: {
    status: 422,
    detail: {
      pt: 'Uma reserva só pode mudar para outro horário da mesma filial.',
      en: 'A booking can only move to another time slot of the same branch.',
      fr: 'Une réservation ne peut être déplacée que vers un autre créneau de la même salle.',
      de: 'Eine Buchung kann nur in ein anderes Zeitfenster desselben Standorts verschoben werden.',
      sk: 'Rezerváciu možno presunúť iba na iný časový úsek tej istej pobočky.',
    },
  },
  price_difference_changed: {
    status: 409,
    detail: {
      pt: 'A diferença de preço mudou: é agora {difference}. Reveja a mudança.',
      en: 'The price difference has changed: it is now {difference}. Please review the move.',
      fr: 'La différence de prix a changé : elle est désormais de {difference}. Veuillez vérifier le déplacement.',
      de: 'Der Preisunterschied hat sich geändert: Er beträgt jetzt {difference}. Bitte prüfen Sie die Verschiebung.',
      sk: 'Cenový rozdiel sa zmenil: teraz je {difference}. Skontrolujte presun.',
    },
  },
  move_in_progress: {
    status: 409,
    detail: {
      pt: 'Esta reserva já está a ser mudada noutro pedido. Aguarde um momento e veja as suas reservas.',
      en: 'This booking is already being moved by another request. Wait a moment and check your bookings.',
      fr: 'Cette réservation est déjà en cours de déplacement par une autre demande. Patientez un instant et consultez vos réservations.',
      de: 'Diese Buchung wird bereits durch eine andere Anfrage verschoben. Warten Sie einen Moment und sehen Sie in Ihren Buchungen nach.',
      sk: 'Táto rezervácia sa už presúva inou požiadavkou. Chvíľu počkajte a pozrite si svoje rezervácie.',
    },
  },
  operator_forbidden: {
    status: 403,
    detail: {
      pt: 'Esta área está reservada aos proprietários.',
      en: 'This is for owners only.',
      fr: 'Cette section est réservée aux propriétaires.',
      de: 'Dieser Bereich ist nur für Inhaber.',
      sk: 'Táto časť je len pre vlastníkov.',
    },
  },
  totp_code_reused: {
    status: 401,
    detail: {
      pt: 'Este código já foi usado. Espere pelo próximo código da sua aplicação de autenticação.',
      en: 'This code has already been used. Wait for the next code in your authenticator app.',
      fr: 'Ce code a déjà été utilisé. Attendez le prochain code de votre application d’authentification.',
      de: 'Dieser Code wurde bereits verwendet. Warten Sie auf den nächsten Code Ihrer Authenticator-App.',
      sk: 'Tento kód už bol použitý. Počkajte na ďalší kód v overovacej aplikácii.',
    },
  },
  invalid_setup_token: {
    status: 400,
    detail: {
      pt: 'Este link de configuração é inválido, já foi usado ou expirou. Peça um novo a um proprietário.',
      en: 'This setup link is invalid, already used or expired. Ask an owner for a new one.',
      fr: 'Ce lien de configuration est invalide, déjà utilisé ou expiré. Demandez-en un nouveau à un propriétaire.',
      de: 'Dieser Einrichtungslink ist ungültig, bereits verwendet oder abgelaufen. Bitten Sie einen Inhaber um einen neuen.',
      sk: 'Tento odkaz na nastavenie je neplatný, už použitý alebo jeho platnosť vypršala. Požiadajte vlastníka o nový.',
    },
  },
  session_not_found: {
    status: 404,
    detail: {
      pt: 'Sessão não encontrada ou já terminada.',
      en: 'Session not found or already ended.',
      fr: 'Session introuvable ou déjà terminée.',
      de: 'Sitzung nicht gefunden oder bereits beendet.',
      sk: 'Relácia sa nenašla alebo už skončila.',
    },
  },
  operator_not_found: {
    status: 404,
    detail: {
      pt: 'Operador não encontrado.',
      en: 'Operator not found.',
      fr: 'Opérateur introuvable.',
      de: 'Betreiber nicht gefunden.',
      sk: 'Operátor sa nenašiel.',
    },
  },
  operator_exists: {
    status: 409,
    detail: {
      pt: 'Já existe um operador com este e-mail.',
      en: 'An operator with this e-mail address already exists.',
      fr: 'Un opérateur avec cette adresse e-mail existe déjà.',
      de: 'Ein Betreiber mit dieser E-Mail-Adresse existiert bereits.',
      sk: 'Operátor s touto e-mailovou adresou už existuje.',
    },
  },
  last_owner: {
    status: 409,
    detail: {
      pt: 'O último proprietário não pode ser removido.',
      en: 'The last owner cannot be removed.',
      fr: 'Le dernier propriétaire ne peut pas être supprimé.',
      de: 'Der letzte Inhaber kann nicht entfernt werden.',
      sk: 'Posledného vlastníka nemožno odstrániť.',
    },
  },
  invalid_period: {
    status: 400,
    detail: {
      pt: 'O período é inválido: o início tem de ser anterior ao fim{limit}.',
      en: 'The period is invalid: the start must come before the end{limit}.',
      fr: 'La période est invalide : le début doit précéder la fin{limit}.',
      de: 'Der Zeitraum ist ungültig: Der Beginn muss vor dem Ende liegen{limit}.',
      sk: 'Obdobie je neplatné: začiatok musí byť pred koncom{limit}.',
    },
  },
  refund_exceeds_paid: {
    status: 409,
    detail: {
      pt: 'O reembolso não pode ser superior ao valor pago ({paid}).',
      en: 'The refund cannot be more than what was paid ({paid}).',
      fr: 'Le remboursement ne peut pas dépasser le montant payé ({paid}).',
      de: 'Die Erstattung darf den bezahlten Betrag ({paid}) nicht übersteigen.',
      sk: 'Vrátená suma nemôže byť vyššia ako zaplatená suma ({paid}).',
    },
  },
  move_price_differs: {
    status: 409,
    detail: {
      pt: 'A reserva só pode ser mudada para um horário com o mesmo preço.',
      en: 'The booking can only be moved to a slot with the same price.',
      fr: 'La réservation ne peut être déplacée que vers un créneau au même prix.',
      de: 'Die Buchung kann nur in ein Zeitfenster mit demselben Preis verschoben werden.',
      sk: 'Rezerváciu možno presunúť len na termín s rovnakou cenou.',
    },
  },
  move_same_slot: {
    status: 409,
    detail: {
      pt: 'A reserva já está neste horário. Escolha outro horário para a mudar.',
      en: 'The booking is already in this slot. Choose another slot to move it to.',
      fr: 'La réservation occupe déjà ce créneau. Choisissez un autre créneau pour la déplacer.',
      de: 'Die Buchung liegt bereits in diesem Zeitfenster. Wählen Sie ein anderes Zeitfenster für die Verschiebung.',
      sk: 'Rezervácia už je v tomto termíne. Vyberte iný termín, na ktorý ju chcete presunúť.',
    },
  },
  closure_not_found: {
    status: 404,
    detail: {
      pt: 'Encerramento não encontrado.',
      en: 'Closure not found.',
      fr: 'Fermeture introuvable.',
      de: 'Schließung nicht gefunden.',
      sk: 'Zatvorenie sa nenašlo.',
    },
  },
  closure_overlaps: {
    status: 409,
    detail: {
      pt: 'Este período sobrepõe-se a um encerramento em vigor.',
      en: 'This period overlaps a closure in force.',
      fr: 'Cette période chevauche une fermeture en vigueur.',
      de: 'Dieser Zeitraum überschneidet sich mit einer bestehenden Schließung.',
      sk: 'Toto obdobie sa prekrýva s platným zatvorením.',
    },
  },
  closure_reopened: {
    status: 409,
    detail: {
      pt: 'Este encerramento já foi levantado.',
      en: 'This closure has already been reopened.',
      fr: 'Cette fermeture a déjà été levée.',
      de: 'Diese Schließung wurde bereits aufgehoben.',
      sk: 'Toto zatvorenie už bolo zrušené.',
    },
  },
  branch_slug_taken: {
    status: 409,
    detail: {
      pt: 'Já existe uma filial com este identificador.',
      en: 'Another branch already has this slug.',
      fr: 'Une autre salle a déjà cet identifiant.',
      de: 'Ein anderer Standort hat bereits diese Kennung.',
      sk: 'Iná pobočka už má tento identifikátor.',
    },
  },
  coupon_not_found: {
    status: 404,
    detail: {
      pt: 'Cupão não encontrado.',
      en: 'Coupon not found.',
      fr: 'Code promo introuvable.',
      de: 'Gutschein nicht gefunden.',
      sk: 'Kupón sa nenašiel.',
    },
  },
  coupon_exists: {
    status: 409,
    detail: {
      pt: 'Já existe um cupão com este código.',
      en: 'A coupon with this code already exists.',
      fr: 'Un code promo identique existe déjà.',
      de: 'Ein Gutschein mit diesem Code existiert bereits.',
      sk: 'Kupón s týmto kódom už existuje.',
    },
  },
  contact_already_blocked: {
    status: 409,
    detail: {
      pt: 'Este contacto já está bloqueado.',
      en: 'This contact is already blocked.',
      fr: 'Ce contact est déjà bloqué.',
      de: 'Dieser Kontakt ist bereits gesperrt.',
      sk: 'Tento kontakt je už zablokovaný.',
    },
  },
  blocked_contact_not_found: {
    status: 404,
    detail: {
      pt: 'Bloqueio não encontrado.',
      en: 'Block not found.',
      fr: 'Blocage introuvable.',
      de: 'Sperre nicht gefunden.',
      sk: 'Blokovanie sa nenašlo.',
    },
  },
  member_not_found: {
    status: 404,
    detail: {
      pt: 'Cliente não encontrado.',
      en: 'Member not found.',
      fr: 'Client introuvable.',
      de: 'Mitglied nicht gefunden.',
      sk: 'Člen sa nenašiel.',
    },
  },
  confirmation_mismatch: {
    status: 409,
    detail: {
      pt: 'A confirmação não corresponde ao e-mail do cliente.',
      en: 'The confirmation does not match the member’s e-mail address.',
      fr: 'La confirmation ne correspond pas à l’adresse e-mail du client.',
      de: 'Die Bestätigung stimmt nicht mit der E-Mail-Adresse des Mitglieds überein.',
      sk: 'Potvrdenie sa nezhoduje s e-mailovou adresou člena.',
    },
  },
} as const satisfies Record<string, { status: number; detail: Localised }>;

export type ErrorCode = keyof typeof errorCatalogue;

/** `contact_blocked` on a profile update: the account exists, so the registration's words would not fit. */
export const CONTACT_BLOCKED_ON_PROFILE: Localised = {
  pt: 'Este e-mail ou número de telefone não pode ser usado na sua conta. Os seus dados de contacto não foram alterados; contacte-nos para mais informações.',
  en: 'This e-mail address or phone number cannot be used on your account. Your contact details were not changed; please contact us for more information.',
  fr: 'Cette adresse e-mail ou ce numéro de téléphone ne peut pas être utilisé sur votre compte. Vos coordonnées n’ont pas été modifiées ; contactez-nous pour plus d’informations.',
  de: 'Diese E-Mail-Adresse oder Telefonnummer kann für Ihr Konto nicht verwendet werden. Ihre Kontaktdaten wurden nicht geändert; bitte kontaktieren Sie uns für weitere Informationen.',
  sk: 'Túto e-mailovú adresu alebo telefónne číslo nie je možné použiť vo vašom účte. Vaše kontaktné údaje sa nezmenili; pre viac informácií nás kontaktujte.',
};

/** Values filled into a detail; a function formats its value in the reader's language (amounts, dates). */
export type ErrorParams = Record<string, string | number | ((locale: Locale) => string)>;

function resolveParams(params: ErrorParams, locale: Locale): Record<string, string | number> {
  return Object.fromEntries(
    Object.entries(params).map(([name, value]) => [
      name,
      typeof value === 'function' ? value(locale) : value,
    ]),
  );
}

/** A verification an account still owes before it may log in (carried by `account_not_verified`). */
export type PendingVerification = 'email' | 'phone';

/** One refused field of a `validation_failed` answer (the contract's `FieldProblem`). */
export type FieldProblem = {
  field: string;
  problem: 'required' | 'not_allowed' | 'too_long' | 'too_short' | 'format' | 'invalid';
  limit?: number;
};

/** Structured fields some errors carry next to `detail` and `code` (the contract's `Error` schema). */
export type ErrorFields = {
  pending?: PendingVerification[];
  fields?: FieldProblem[];
  /** On `price_difference_changed`: the difference the server computes now, in euros. */
  price_difference_eur?: number;
};

export type ErrorBody = { detail: string; code: ErrorCode } & ErrorFields;

/** A failure the caller is meant to see. Anything else thrown becomes `internal_error`. */

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly params: ErrorParams;
  readonly fields: ErrorFields;
  /** Words of its own for one use of a code (the catalogue's otherwise). */
  readonly detail: Localised | null;

  constructor(
    code: ErrorCode,
    params: ErrorParams = {},
    fields: ErrorFields = {},
    options: { detail?: Localised } = {},
  ) {
    super(code);
    this.name = 'AppError';
    this.code = code;
    this.params = params;
    this.fields = fields;
    this.detail = options.detail ?? null;
  }

  get status(): number {
    return errorCatalogue[this.code].status;
  }

  body(locale: Locale): ErrorBody {
    return {
      detail: format(
        (this.detail ?? errorCatalogue[this.code].detail)[locale],
        resolveParams(this.params, locale),
      ),
      code: this.code,
      ...this.fields,
    };
  }
}
