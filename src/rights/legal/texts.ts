import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';

export type LegalSectionId = 'op-rules' | 'terms-and-conditions' | 'gdpr' | 'cookies-notice';

export type LegalValues = {
  companyName: string;
  companyNIF: string;
  /** With '@' written as %40, like every address in the legal texts (decoded for display). */
  contactEmail: string;
  refundRatiosText: string;
};

/*
 * The legal texts, one message each, in their own catalog (locales/<lang>/legal.po) so that only the
 * rights page loads them. Lines starting with 'N.' are headings, lines starting with '-' are bullets.
 */
const LEGAL_TEXTS = {
  'op-rules': msg({
    id: 'legal.op-rules',
    message: `1. Âmbito
- Estas regras aplicam-se a todos os espaços {companyName} e a todas as pessoas que neles entram durante uma reserva.
- O titular da reserva é responsável pelo cumprimento das regras, por si e por todos os seus acompanhantes.
2. Acesso
- Os espaços funcionam sem pessoal, 24 horas por dia, 7 dias por semana, e só se entra com uma reserva paga.
- O código da porta é enviado por e-mail e por SMS cerca de 30 minutos antes do início da sessão e só funciona durante a reserva, com uma tolerância de 15 minutos antes e depois.
- Não partilhe o código com quem não esteja consigo nessa sessão.
- Saia do espaço até ao fim do seu horário e confirme que a porta fica fechada.
3. Acompanhantes
- Pode trazer amigos, familiares ou os seus próprios clientes; todos têm de cumprir estas regras.
- Menores de 15 anos só podem entrar acompanhados por um adulto, responsável por eles durante toda a sessão.
- Não são permitidos animais, com exceção de cães de assistência.
4. Utilização do espaço e do equipamento
- Use calçado desportivo limpo e uma toalha nas máquinas e nos bancos.
- Depois de treinar, arrume os pesos e os acessórios no respetivo lugar.
- Use o equipamento apenas para o fim a que se destina e siga as instruções afixadas.
- É proibido fumar e consumir bebidas alcoólicas ou outras substâncias ilícitas.
- Respeite a vizinhança: mantenha a música num volume moderado, sobretudo entre as 22h00 e as 8h00.
5. Segurança e saúde
- Treine de acordo com a sua condição física; em caso de dúvida, consulte um médico antes de começar.
- Em caso de emergência ligue 112. Cada espaço tem um estojo de primeiros socorros sinalizado.
- A entrada e as zonas comuns têm videovigilância, nos termos da política de privacidade.
6. Danos e limpeza
- Comunique de imediato qualquer avaria, dano ou falta de limpeza para {contactEmail}.
- Os danos causados por uso indevido podem ser cobrados ao titular da reserva.
7. Incumprimento
- Quem não cumprir estas regras pode ser impedido de voltar a reservar; o bloqueio aplica-se ao número de telemóvel e ao endereço de e-mail.
- Em caso de incumprimento grave, a sessão em curso pode ser terminada sem direito a reembolso.`,
  }),
  'terms-and-conditions': msg({
    id: 'legal.terms',
    message: `1. Identificação
{companyName}, NIF {companyNIF}, contacto {contactEmail}.
Estes termos regulam a utilização do site e da aplicação e a reserva dos nossos espaços. Ao criar uma conta ou fazer uma reserva, aceita estes termos e as regras de utilização.
2. Conta
- Para reservar precisa de uma conta com o e-mail e o número de telemóvel confirmados.
- Os dados da conta têm de ser verdadeiros e estar atualizados; a palavra-passe é pessoal e confidencial.
- A conta é pessoal e intransmissível.
3. Reservas
- Cada reserva dá direito ao uso exclusivo do espaço inteiro durante os slots escolhidos.
- A reserva só fica confirmada depois do pagamento. Se o pagamento não for concluído em 30 minutos, os slots ficam de novo disponíveis.
- Todos os horários são indicados no fuso horário do espaço.
4. Preços e pagamento
- Os preços são apresentados em euros, com IVA incluído à taxa legal em vigor, e variam com o espaço, o dia da semana e a hora.
- O pagamento é feito antecipadamente, com cartão, através de um prestador de pagamentos certificado; não guardamos os dados do seu cartão.
- Os cupões de desconto seguem as condições de cada campanha e não são convertíveis em dinheiro.
- Oferta de lançamento: quem se registar antes da abertura recebe um cupão de 10% para as 3 primeiras reservas.
5. Cancelamento e reembolso
- Pode cancelar reservas ativas em «As minhas reservas».
- O valor reembolsado depende da antecedência do cancelamento: {refundRatiosText}
- O reembolso é feito para o meio de pagamento original, normalmente em 5 a 10 dias úteis.
- Uma reserva a que não compareça não é reembolsada.
- Se não pudermos disponibilizar o espaço por motivo que nos seja imputável, devolvemos a totalidade do valor pago.
6. Direito de livre resolução
- Por se tratar de um serviço de lazer com data marcada, o prazo de 14 dias de livre resolução não se aplica (Decreto-Lei n.º 24/2014, artigo 17.º); aplica-se a política de cancelamento acima.
7. Responsabilidade
- Utiliza os espaços e o equipamento sob a sua responsabilidade e de acordo com a sua condição física.
- Não respondemos por objetos pessoais deixados nos espaços.
- O titular da reserva responde pelos danos causados por si ou pelos seus acompanhantes.
8. Eliminação e suspensão da conta
- Pode eliminar a sua conta a qualquer momento nas definições; as reservas futuras são canceladas e reembolsadas segundo a política acima.
- Podemos suspender contas que violem estes termos ou as regras de utilização.
9. Reclamações e litígios
- Pode contactar-nos através de {contactEmail} ou usar o Livro de Reclamações Eletrónico em www.livroreclamacoes.pt.
- Em caso de litígio, pode recorrer a uma entidade de resolução alternativa de litígios de consumo, como o CNIACC (www.cniacc.pt); mais informações em www.consumidor.gov.pt.
- Aplica-se a lei portuguesa.`,
  }),
  gdpr: msg({
    id: 'legal.gdpr',
    message: `1. Responsável pelo tratamento
{companyName}, NIF {companyNIF}. Para qualquer questão sobre os seus dados pessoais, escreva para {contactEmail}.
2. Dados que tratamos
- Dados da conta: nome, e-mail, número de telemóvel, idioma preferido e palavra-passe (guardada apenas em forma cifrada).
- Dados das reservas e dos pagamentos: espaços, horários, valores, cupões e reembolsos. Os dados do cartão são tratados apenas pelo prestador de pagamentos.
- Registos de acesso: a utilização dos códigos da porta.
- Imagens de videovigilância da entrada e das zonas comuns.
- Dados de utilização do site e da aplicação, quando a medição está ativa (ver o aviso de cookies).
3. Finalidades e fundamentos
- Gerir a conta, as reservas, os pagamentos e o acesso aos espaços: execução do contrato.
- Enviar os códigos da porta e os avisos das reservas por e-mail e SMS: execução do contrato.
- Faturação e obrigações fiscais: cumprimento de obrigações legais.
- Segurança das pessoas e dos bens e prevenção de fraude, incluindo o bloqueio de clientes que não cumpram as regras: interesse legítimo.
- Envio de novidades e campanhas, se o aceitou: consentimento, que pode retirar a qualquer momento.
4. Prazos de conservação
- Dados da conta: enquanto a conta existir.
- Dados de faturação: durante o prazo exigido pela lei fiscal (10 anos).
- Imagens de videovigilância: 30 dias, no máximo.
- Quando elimina a conta, apagamos os seus dados pessoais; as reservas ficam guardadas apenas de forma anonimizada, para fins contabilísticos.
5. Partilha de dados
- Partilhamos dados apenas com prestadores que nos ajudam a prestar o serviço (pagamentos, envio de e-mails e SMS, alojamento informático e fechaduras inteligentes), vinculados por contrato às nossas instruções.
- Se algum prestador tratar dados fora do Espaço Económico Europeu, fá-lo com as garantias adequadas previstas no RGPD.
- Não vendemos os seus dados.
6. Os seus direitos
- Tem direito de acesso, retificação, apagamento, limitação e portabilidade dos seus dados, de oposição ao tratamento e de retirar o consentimento a qualquer momento.
- Para exercer estes direitos, escreva para {contactEmail}; respondemos no prazo de um mês.
- Pode ainda apresentar reclamação à Comissão Nacional de Proteção de Dados (CNPD), em www.cnpd.pt ou através de geral%40cnpd.pt.
7. Segurança
- Protegemos os seus dados com ligações cifradas, palavras-passe guardadas com cifra forte e acessos restritos a quem deles precisa.`,
  }),
  'cookies-notice': msg({
    id: 'legal.cookies',
    message: `1. O que são cookies
Cookies são pequenos ficheiros que um site guarda no seu dispositivo. O armazenamento local do navegador funciona de forma semelhante e está também coberto por este aviso.
2. Cookies e armazenamento essenciais
- locale: guarda o idioma que escolheu, durante 1 ano.
- token (armazenamento local): mantém a sua sessão iniciada até a terminar.
- São necessários para o site funcionar e, por isso, não precisam de consentimento.
3. Pagamentos
- Durante o pagamento, o prestador de pagamentos pode usar cookies próprios para prevenir fraude.
4. Medição de utilização
- Quando está ativo, o serviço de análise de produto Mixpanel regista cada pedido feito à aplicação (o tipo de pedido, se correu bem e o código de resposta) e, com sessão iniciada, um identificador pseudónimo da sua conta.
- Usamos estes dados apenas para melhorar o serviço e nunca para publicidade.
5. Gerir cookies
- Pode apagar ou bloquear cookies e o armazenamento local nas definições do navegador; se bloquear os essenciais, algumas funções deixam de funcionar.
- Para qualquer questão, escreva para {contactEmail}.`,
  }),
} as const;

/** The four legal texts in the active language, with the company's details and the refund policy filled in. */
export function useLegalTexts(values: LegalValues): Record<LegalSectionId, string> {
  const { i18n } = useLingui();
  return {
    'op-rules': i18n._({ ...LEGAL_TEXTS['op-rules'], values }),
    'terms-and-conditions': i18n._({ ...LEGAL_TEXTS['terms-and-conditions'], values }),
    gdpr: i18n._({ ...LEGAL_TEXTS.gdpr, values }),
    'cookies-notice': i18n._({ ...LEGAL_TEXTS['cookies-notice'], values }),
  };
}
