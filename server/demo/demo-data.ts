import { type BranchDefinition, type PriceRule } from '../catalog/index.ts';

// The demo data set a newcomer sees on an empty database: three branches (two bookable, one coming soon),
// their prices, the refund policy and two coupons. Tests and the README refer to these constants.

export const DEMO_BRANCH_SLUGS = {
  lisboa: 'lisboa-avenidas-novas',
  porto: 'porto-boavista',
  funchal: 'funchal-lido',
} as const;

export const DEMO_COUPON_CODES = { earlyBird: 'EARLYBIRD', welcome: 'WELCOME5' } as const;

/** Prepaid packs on sale (issue 31), each sold by the first demo branch. Credit: minutes or cents. */
export const DEMO_CREDIT_PACKS = [
  {
    name: '10 horas',
    unit: 'minutes',
    credit: 600,
    price_cents: 120_00,
    validity_days: 180,
    all_branches: true,
  },
  {
    name: 'Manhãs de semana (5 horas)',
    unit: 'minutes',
    credit: 300,
    price_cents: 40_00,
    validity_days: 60,
    all_branches: true,
    weekdays: [1, 2, 3, 4, 5],
    from_minute: 7 * 60,
    to_minute: 12 * 60,
  },
  {
    name: 'Crédito de 50 €',
    unit: 'cents',
    credit: 50_00,
    price_cents: 45_00,
    validity_days: 365,
    all_branches: true,
  },
] as const;

export const DEMO_REFUND_RATIOS = { '48': 1, '24': 0.5, '0': 0 };

/** A verified client account, so a newcomer can log in and book at once (the README gives these). */
export const DEMO_CLIENT = {
  email: 'demo@example.com',
  password: 'Demo-gym-2026!',
  phoneNumber: '+351910000000',
  firstName: 'Demo',
  lastName: 'Cliente',
  locale: 'pt',
} as const;

/** The demo's opening date lies this many days after seeding; EARLYBIRD is for accounts made before it. */
export const DEMO_OPENING_DAYS_AHEAD = 60;
export const DEMO_TIME_ZONE = 'Europe/Lisbon';

const WEEKDAYS = [1, 2, 3, 4, 5];
const WEEKEND = [6, 7];
const EVERY_DAY = [...WEEKDAYS, ...WEEKEND];

function band(days: number[], from: string, to: string, priceCents: number): PriceRule[] {
  const minute = (time: string) => {
    const [hours, minutes] = time.split(':').map(Number) as [number, number];
    return hours * 60 + minutes;
  };
  return days.map((isoWeekday) => ({
    isoWeekday,
    startsAtMinute: minute(from),
    endsAtMinute: minute(to),
    priceCents,
  }));
}

/** Night is cheap, weekday mornings and evenings are peak, weekend days are in between. */
function demoPrices(cents: { night: number; morning: number; peak: number; weekend: number }): PriceRule[] {
  return [
    ...band(EVERY_DAY, '00:00', '07:00', cents.night),
    ...band(WEEKDAYS, '07:00', '09:00', cents.morning),
    ...band(WEEKDAYS, '17:00', '21:00', cents.peak),
    ...band(WEEKEND, '09:00', '21:00', cents.weekend),
  ];
}

/** An embeddable OpenStreetMap view of about 1 km around a point, with a marker on it. */
function openStreetMapEmbedUrl(latitude: number, longitude: number): string {
  const box = [longitude - 0.006, latitude - 0.003, longitude + 0.006, latitude + 0.003].map((value) =>
    value.toFixed(4),
  );
  return (
    `https://www.openstreetmap.org/export/embed.html?bbox=${box.join('%2C')}` +
    `&layer=mapnik&marker=${latitude.toFixed(4)}%2C${longitude.toFixed(4)}`
  );
}

function gallery(prefix: string): string[] {
  return [1, 2, 3].map((index) => `/images/branches/${prefix}-${index}.svg`);
}

function paragraphs(...texts: string[]): string {
  return texts.map((text) => `<p>${text}</p>`).join('');
}

const lisboa = { latitude: 38.744, longitude: -9.1458 };
const porto = { latitude: 41.159, longitude: -8.638 };
const funchal = { latitude: 32.6379, longitude: -16.9326 };

type ArrivalTexts = { directions: string; keypad: string; rules: string };

/** The same house rules at every branch, in the five languages. */
const HOUSE_RULES = {
  pt: 'Sem calçado de rua na sala; arrume o material e apague as luzes ao sair.',
  en: 'No street shoes on the floor; put the equipment back and switch off the lights when you leave.',
  fr: 'Pas de chaussures d’extérieur dans la salle ; rangez le matériel et éteignez en partant.',
  de: 'Keine Straßenschuhe auf der Trainingsfläche; Geräte zurücklegen und beim Gehen das Licht ausschalten.',
  sk: 'V sále žiadna obuv z ulice; po tréningu upracte náradie a zhasnite svetlá.',
} as const;

/** How to type a door code on the demo's keypads, in the five languages. */
const KEYPAD = {
  pt: 'O teclado está à direita da porta. Toque no ecrã para o acender, marque os 6 dígitos e carregue em ✓. A luz verde acende e a porta destranca durante 5 segundos: empurre.',
  en: 'The keypad is to the right of the door. Touch it to wake it up, type the 6 digits and press ✓. The light turns green and the door unlocks for 5 seconds: push.',
  fr: 'Le clavier est à droite de la porte. Touchez-le pour l’allumer, tapez les 6 chiffres et appuyez sur ✓. Le voyant passe au vert et la porte se déverrouille 5 secondes : poussez.',
  de: 'Das Tastenfeld ist rechts neben der Tür. Berühren Sie es, um es zu wecken, tippen Sie die 6 Ziffern und drücken Sie ✓. Das Licht wird grün und die Tür ist 5 Sekunden lang entriegelt: drücken.',
  sk: 'Klávesnica je vpravo od dverí. Dotknite sa jej, aby sa rozsvietila, zadajte 6 číslic a stlačte ✓. Rozsvieti sa zelené svetlo a dvere sa na 5 sekúnd odomknú: zatlačte.',
} as const;

/** A demo branch's arrival kit: its entrance photo and Wi-Fi, and how to find its door in each language. */
function demoArrival(
  branch: string,
  directions: Record<'pt' | 'en' | 'fr' | 'de' | 'sk', string>,
): BranchDefinition['arrival'] {
  const texts = Object.fromEntries(
    (['pt', 'en', 'fr', 'de', 'sk'] as const).map((locale): [string, ArrivalTexts] => [
      locale,
      { directions: directions[locale], keypad: KEYPAD[locale], rules: HOUSE_RULES[locale] },
    ]),
  );
  return {
    entrance_photo_url: `/images/branches/${branch}-entrance.svg`,
    wifi_network: `PrivateGym-${branch[0]!.toUpperCase()}${branch.slice(1)}`,
    wifi_password: 'treino-2026',
    texts,
  };
}

export const DEMO_BRANCHES: BranchDefinition[] = [
  {
    slug: DEMO_BRANCH_SLUGS.lisboa,
    name: 'Lisboa – Avenidas Novas',
    order: 1,
    location: 'Avenida da República 52, 1050-196 Lisboa',
    ...lisboa,
    mapUrl: openStreetMapEmbedUrl(lisboa.latitude, lisboa.longitude),
    timeZone: 'Europe/Lisbon',
    slotMinutes: 60,
    openingHours: null,
    activeWithSmartLock: true,
    images: gallery('lisboa'),
    arrival: demoArrival('lisboa', {
      pt: 'A entrada é pela porta azul ao lado do n.º 52 da Avenida da República, entre a farmácia e o café. O ginásio fica no rés-do-chão, à esquerda.',
      en: 'The entrance is the blue door next to no. 52 Avenida da República, between the pharmacy and the café. The gym is on the ground floor, on the left.',
      fr: 'L’entrée est la porte bleue à côté du n° 52 de l’Avenida da República, entre la pharmacie et le café. La salle est au rez-de-chaussée, à gauche.',
      de: 'Der Eingang ist die blaue Tür neben Nr. 52 der Avenida da República, zwischen Apotheke und Café. Das Studio liegt im Erdgeschoss links.',
      sk: 'Vchod sú modré dvere vedľa č. 52 na Avenida da República, medzi lekárňou a kaviarňou. Posilňovňa je na prízemí vľavo.',
    }),
    defaultPriceCents: 1500,
    priceRules: demoPrices({ night: 900, morning: 1800, peak: 2200, weekend: 1800 }),
    descriptions: {
      pt: paragraphs(
        'Um ginásio inteiro só para si, a dois passos do Campo Pequeno. Duas estações de agachamento com barras olímpicas e discos, halteres de 2 a 40 kg, bancos ajustáveis, polia dupla, remo e bicicleta de ar.',
        'São 140 m² com espelhos de parede a parede, ar condicionado, som por Bluetooth e balneário com duche e toalhas.',
        'Sem receção nem filas: 30 minutos antes da sua sessão recebe por e-mail e SMS o código da porta, válido desde 15 minutos antes até 15 minutos depois da reserva.',
      ),
      en: paragraphs(
        'A whole gym to yourself, a short walk from Campo Pequeno. Two squat racks with Olympic barbells and bumper plates, dumbbells from 2 to 40 kg, adjustable benches, a dual cable pulley, a rower and an air bike.',
        '140 m² with wall-to-wall mirrors, air conditioning, Bluetooth sound and a changing room with a shower and towels.',
        'No front desk, no queues: 30 minutes before your session you receive the door code by e-mail and SMS, valid from 15 minutes before until 15 minutes after your booking.',
      ),
      fr: paragraphs(
        'Une salle de sport entière rien que pour vous, à deux pas du Campo Pequeno. Deux racks à squat avec barres olympiques et disques, des haltères de 2 à 40 kg, des bancs réglables, une double poulie, un rameur et un vélo à air.',
        '140 m² avec un mur entier de miroirs, la climatisation, une enceinte Bluetooth et un vestiaire avec douche et serviettes.',
        'Ni accueil ni file d’attente : 30 minutes avant votre séance, vous recevez le code de la porte par e-mail et SMS, valable de 15 minutes avant à 15 minutes après votre réservation.',
      ),
      de: paragraphs(
        'Ein ganzes Fitnessstudio nur für Sie, wenige Schritte vom Campo Pequeno entfernt. Zwei Squat-Racks mit olympischen Langhanteln und Bumper Plates, Kurzhanteln von 2 bis 40 kg, verstellbare Bänke, ein Doppelkabelzug, ein Rudergerät und ein Air Bike.',
        '140 m² mit durchgehender Spiegelwand, Klimaanlage, Bluetooth-Soundsystem und einer Umkleide mit Dusche und Handtüchern.',
        'Kein Empfang, keine Warteschlange: 30 Minuten vor Ihrer Einheit erhalten Sie den Türcode per E-Mail und SMS, gültig von 15 Minuten vor bis 15 Minuten nach Ihrer Buchung.',
      ),
      sk: paragraphs(
        'Celá posilňovňa len pre vás, pár krokov od Campo Pequeno. Dva drepové stojany s olympijskými osami a kotúčmi, jednoručky od 2 do 40 kg, nastaviteľné lavice, dvojitá kladka, veslovací trenažér a air bike.',
        '140 m² so zrkadlami po celej stene, klimatizáciou, Bluetooth reproduktorom a šatňou so sprchou a uterákmi.',
        'Žiadna recepcia, žiadne rady: 30 minút pred tréningom vám e-mailom a SMS pošleme kód od dverí, platný od 15 minút pred začiatkom do 15 minút po skončení rezervácie.',
      ),
    },
  },
  {
    slug: DEMO_BRANCH_SLUGS.porto,
    name: 'Porto – Boavista',
    order: 2,
    location: 'Avenida da Boavista 1277, 4100-130 Porto',
    ...porto,
    mapUrl: openStreetMapEmbedUrl(porto.latitude, porto.longitude),
    timeZone: 'Europe/Lisbon',
    slotMinutes: 60,
    openingHours: null,
    activeWithSmartLock: true,
    images: gallery('porto'),
    arrival: demoArrival('porto', {
      pt: 'A entrada é pela porta castanha do n.º 1277 da Avenida da Boavista, no pátio interior: passe o portão e siga em frente. Há estacionamento gratuito à porta depois das 19:00.',
      en: 'The entrance is the brown door of no. 1277 Avenida da Boavista, in the inner courtyard: go through the gate and straight on. Parking at the door is free after 7 pm.',
      fr: 'L’entrée est la porte marron du n° 1277 de l’Avenida da Boavista, dans la cour intérieure : passez le portail et allez tout droit. Le stationnement devant la porte est gratuit après 19 h.',
      de: 'Der Eingang ist die braune Tür von Nr. 1277 der Avenida da Boavista im Innenhof: durch das Tor und geradeaus. Ab 19 Uhr parken Sie vor der Tür kostenlos.',
      sk: 'Vchod sú hnedé dvere č. 1277 na Avenida da Boavista vo vnútornom dvore: prejdite bránou a pokračujte rovno. Po 19:00 sa pri dverách parkuje zadarmo.',
    }),
    defaultPriceCents: 1200,
    priceRules: demoPrices({ night: 700, morning: 1500, peak: 1800, weekend: 1500 }),
    descriptions: {
      pt: paragraphs(
        'O seu ginásio privado na Avenida da Boavista, perto da Casa da Música. Um rack de potência sobre plataforma de halterofilismo, halteres até 36 kg, kettlebells, banco ajustável, máquina de polias, passadeira e remo.',
        'Um espaço luminoso de 110 m², com janelas amplas, espelhos, ventilação com ar novo e uma zona de alongamentos com tapetes e rolos.',
        'Entre com o código que lhe enviamos por e-mail e SMS 30 minutos antes da sessão: a porta abre a partir de 15 minutos antes da hora marcada e o código deixa de funcionar 15 minutos depois do fim.',
      ),
      en: paragraphs(
        'Your private gym on Avenida da Boavista, near Casa da Música. A power rack on a lifting platform, dumbbells up to 36 kg, kettlebells, an adjustable bench, a cable machine, a treadmill and a rower.',
        'A bright 110 m² space with large windows, mirrors, fresh-air ventilation and a stretching corner with mats and foam rollers.',
        'Let yourself in with the code we send by e-mail and SMS 30 minutes before your session: the door opens from 15 minutes before your start time, and the code stops working 15 minutes after the end.',
      ),
      fr: paragraphs(
        'Votre salle privée sur l’Avenida da Boavista, près de la Casa da Música. Un power rack sur plateforme d’haltérophilie, des haltères jusqu’à 36 kg, des kettlebells, un banc réglable, une machine à poulies, un tapis de course et un rameur.',
        'Un espace lumineux de 110 m², avec de grandes fenêtres, des miroirs, une ventilation à air neuf et un coin étirements avec tapis et rouleaux de massage.',
        'Entrez avec le code envoyé par e-mail et SMS 30 minutes avant votre séance : la porte s’ouvre dès 15 minutes avant l’heure prévue et le code cesse de fonctionner 15 minutes après la fin.',
      ),
      de: paragraphs(
        'Ihr privates Studio an der Avenida da Boavista, nahe der Casa da Música. Ein Power Rack auf einer Gewichtheberplattform, Kurzhanteln bis 36 kg, Kettlebells, eine verstellbare Bank, ein Kabelzug, ein Laufband und ein Rudergerät.',
        'Ein heller Raum von 110 m² mit großen Fenstern, Spiegeln, Frischluftlüftung und einer Dehnecke mit Matten und Faszienrollen.',
        'Sie öffnen die Tür mit dem Code, den wir Ihnen 30 Minuten vor Ihrer Einheit per E-Mail und SMS schicken: Er gilt ab 15 Minuten vor Beginn und erlischt 15 Minuten nach dem Ende.',
      ),
      sk: paragraphs(
        'Vaša súkromná posilňovňa na Avenida da Boavista, neďaleko Casa da Música. Silový stojan na vzpieračskom pódiu, jednoručky do 36 kg, kettlebelly, nastaviteľná lavica, kladkový stroj, bežecký pás a veslovací trenažér.',
        'Svetlý priestor s rozlohou 110 m² s veľkými oknami, zrkadlami, vetraním s čerstvým vzduchom a kútikom na strečing s podložkami a masážnymi valcami.',
        'Dnu sa dostanete s kódom, ktorý vám pošleme e-mailom a SMS 30 minút pred tréningom: dvere sa otvoria 15 minút pred začiatkom a kód prestane platiť 15 minút po skončení.',
      ),
    },
  },
  {
    slug: DEMO_BRANCH_SLUGS.funchal,
    name: 'Funchal – Lido',
    order: 3,
    location: 'Estrada Monumental 284, 9000-100 Funchal, Madeira',
    ...funchal,
    mapUrl: openStreetMapEmbedUrl(funchal.latitude, funchal.longitude),
    timeZone: 'Atlantic/Madeira',
    slotMinutes: 60,
    openingHours: null,
    activeWithSmartLock: false,
    images: gallery('funchal'),
    arrival: demoArrival('funchal', {
      pt: 'A entrada é pela porta verde no n.º 45 da Estrada Monumental, do lado do mar, por baixo do toldo branco.',
      en: 'The entrance is the green door at no. 45 Estrada Monumental, on the sea side, under the white awning.',
      fr: 'L’entrée est la porte verte au n° 45 de l’Estrada Monumental, côté mer, sous l’auvent blanc.',
      de: 'Der Eingang ist die grüne Tür in der Estrada Monumental Nr. 45, auf der Meerseite unter der weißen Markise.',
      sk: 'Vchod sú zelené dvere na Estrada Monumental č. 45, na strane mora, pod bielou markízou.',
    }),
    defaultPriceCents: 1400,
    priceRules: demoPrices({ night: 800, morning: 1600, peak: 2000, weekend: 1600 }),
    descriptions: {
      pt: paragraphs(
        'Brevemente no Funchal, na Estrada Monumental, a poucos minutos do Lido. Um ginásio privado com vista para o Atlântico: rack de potência, halteres até 40 kg, kettlebells, TRX e bicicleta de spinning.',
        '100 m² com ar condicionado, espelhos, som por Bluetooth e balneário com duche.',
        'Tal como nas outras filiais, entra com um código de porta pessoal, enviado por e-mail e SMS antes de cada sessão. Registe-se já e aproveite o desconto early bird.',
      ),
      en: paragraphs(
        'Coming soon to Funchal, on the Estrada Monumental, a few minutes from the Lido. A private gym with a view of the Atlantic: a power rack, dumbbells up to 40 kg, kettlebells, a TRX and a spin bike.',
        '100 m² with air conditioning, mirrors, Bluetooth sound and a changing room with a shower.',
        'As at our other branches, you let yourself in with a personal door code sent by e-mail and SMS before each session. Register now to get the early bird discount.',
      ),
      fr: paragraphs(
        'Bientôt à Funchal, sur l’Estrada Monumental, à quelques minutes du Lido. Une salle privée avec vue sur l’Atlantique : un power rack, des haltères jusqu’à 40 kg, des kettlebells, un TRX et un vélo de spinning.',
        '100 m² climatisés, avec miroirs, enceinte Bluetooth et vestiaire avec douche.',
        'Comme dans nos autres salles, vous entrez avec un code personnel envoyé par e-mail et SMS avant chaque séance. Inscrivez-vous dès maintenant pour profiter de la réduction early bird.',
      ),
      de: paragraphs(
        'Demnächst in Funchal, an der Estrada Monumental, wenige Minuten vom Lido entfernt. Ein privates Studio mit Blick auf den Atlantik: Power Rack, Kurzhanteln bis 40 kg, Kettlebells, TRX und ein Indoor-Cycling-Bike.',
        '100 m² mit Klimaanlage, Spiegeln, Bluetooth-Soundsystem und einer Umkleide mit Dusche.',
        'Wie an unseren anderen Standorten kommen Sie mit einem persönlichen Türcode hinein, den Sie vor jeder Einheit per E-Mail und SMS erhalten. Registrieren Sie sich jetzt und sichern Sie sich den Early-Bird-Rabatt.',
      ),
      sk: paragraphs(
        'Čoskoro vo Funchale, na Estrada Monumental, pár minút od kúpaliska Lido. Súkromná posilňovňa s výhľadom na Atlantik: silový stojan, jednoručky do 40 kg, kettlebelly, TRX a spinningový bicykel.',
        '100 m² s klimatizáciou, zrkadlami, Bluetooth reproduktorom a šatňou so sprchou.',
        'Ako v našich ostatných pobočkách, dnu vás pustí osobný kód od dverí, ktorý dostanete e-mailom a SMS pred každým tréningom. Zaregistrujte sa už teraz a získajte zľavu early bird.',
      ),
    },
  },
];

/**
 * The console's demo owner (issue 18). Its TOTP secret is fixed so the README and the development log can give
 * it: add the `otpauth://` URI the log prints to an authenticator app, or compute codes from the secret.
 */
export const DEMO_OWNER = {
  email: 'owner@example.com',
  password: 'Demo-console-2026!',
  totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
} as const;
