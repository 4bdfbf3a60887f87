// The checkout page's texts in the app's languages (en, es, pt, it).
export const LANGS = ['en', 'es', 'pt', 'it'] as const;
export type Lang = (typeof LANGS)[number];

export function pickLang(...candidates: (string | null | undefined)[]): Lang {
  for (const candidate of candidates) {
    const base = (candidate ?? '').toLowerCase().split(/[-_,;]/)[0];
    if ((LANGS as readonly string[]).includes(base ?? '')) return base as Lang;
  }
  return 'en';
}

const en = {
  title: 'Checkout',
  order: 'Your order',
  total: 'Total',
  pay: 'Pay {amount}',
  pay_with_card: 'Pay with card',
  cardholder_name: 'Name on card',
  card_number: 'Card number',
  card_expiry: 'Expiry (MM/YY)',
  card_cvc: 'Security code (CVC)',
  discount: '{percentage} off',
  discount_until: 'Offer ends {date}',
  owned: 'Already in your library',
  unavailable: 'Not for sale',
  open_app: 'Open in the app',
  empty: 'Your cart is empty.',
  back_to_app: 'Go back to the app to keep reading.',
  session_expired_title: 'Your checkout session has expired',
  session_expired: 'Go back to the app and tap Buy again to start a new checkout.',
  form_expired: 'This form has expired. Review your order and pay again.',
  cart_changed: 'Your cart changed in another window. Review it and pay again.',
  processing: 'Your payment is being processed. Reload this page in a moment.',
  nothing_to_pay: 'Nothing in your cart can be bought right now.',
  fix_fields: 'Please correct the fields marked below.',
  card_declined: 'Your card was declined. You have not been charged. Try another card.',
  test_card_only: 'This store is in test mode: use the test card 4242 4242 4242 4242.',
  payment_failed: 'The payment could not be completed. You have not been charged. Please try again.',
  cardholder_name_required: 'Enter the name on the card.',
  card_number_invalid: 'Enter a valid card number.',
  card_expiry_invalid: 'Enter the expiry date as MM/YY.',
  card_expired: 'This card has expired.',
  card_cvc_invalid: 'Enter the 3 or 4 digit security code.',
  test_mode: 'Test mode: no money is charged. Card 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined; any future expiry date and any CVC.',
  secure_note: 'Your card details go to the payment provider only.',
};

export type MessageKey = keyof typeof en;

const es: Record<MessageKey, string> = {
  title: 'Pago',
  order: 'Tu pedido',
  total: 'Total',
  pay: 'Pagar {amount}',
  pay_with_card: 'Pagar con tarjeta',
  cardholder_name: 'Nombre en la tarjeta',
  card_number: 'Número de tarjeta',
  card_expiry: 'Vencimiento (MM/AA)',
  card_cvc: 'Código de seguridad (CVC)',
  discount: '{percentage} de descuento',
  discount_until: 'La oferta termina el {date}',
  owned: 'Ya está en tu biblioteca',
  unavailable: 'No está a la venta',
  open_app: 'Abrir en la app',
  empty: 'Tu carrito está vacío.',
  back_to_app: 'Vuelve a la app para seguir leyendo.',
  session_expired_title: 'Tu sesión de pago expiró',
  session_expired: 'Vuelve a la app y toca Comprar otra vez para iniciar un nuevo pago.',
  form_expired: 'Este formulario expiró. Revisa tu pedido y paga otra vez.',
  cart_changed: 'Tu carrito cambió en otra ventana. Revísalo y paga otra vez.',
  processing: 'Tu pago se está procesando. Recarga esta página en un momento.',
  nothing_to_pay: 'Nada de tu carrito se puede comprar ahora.',
  fix_fields: 'Corrige los campos marcados abajo.',
  card_declined: 'Tu tarjeta fue rechazada. No se te cobró nada. Prueba con otra tarjeta.',
  test_card_only: 'Esta tienda está en modo de prueba: usa la tarjeta de prueba 4242 4242 4242 4242.',
  payment_failed: 'No se pudo completar el pago. No se te cobró nada. Inténtalo otra vez.',
  cardholder_name_required: 'Ingresa el nombre que figura en la tarjeta.',
  card_number_invalid: 'Ingresa un número de tarjeta válido.',
  card_expiry_invalid: 'Ingresa el vencimiento como MM/AA.',
  card_expired: 'Esta tarjeta está vencida.',
  card_cvc_invalid: 'Ingresa el código de seguridad de 3 o 4 dígitos.',
  test_mode:
    'Modo de prueba: no se cobra dinero. La tarjeta 4242 4242 4242 4242 paga, 4000 0000 0000 0002 es rechazada; cualquier vencimiento futuro y cualquier CVC.',
  secure_note: 'Los datos de tu tarjeta van solo al proveedor de pagos.',
};

const pt: Record<MessageKey, string> = {
  title: 'Pagamento',
  order: 'Seu pedido',
  total: 'Total',
  pay: 'Pagar {amount}',
  pay_with_card: 'Pagar com cartão',
  cardholder_name: 'Nome no cartão',
  card_number: 'Número do cartão',
  card_expiry: 'Validade (MM/AA)',
  card_cvc: 'Código de segurança (CVC)',
  discount: '{percentage} de desconto',
  discount_until: 'A oferta termina em {date}',
  owned: 'Já está na sua biblioteca',
  unavailable: 'Não está à venda',
  open_app: 'Abrir no app',
  empty: 'Seu carrinho está vazio.',
  back_to_app: 'Volte ao app para continuar lendo.',
  session_expired_title: 'Sua sessão de pagamento expirou',
  session_expired: 'Volte ao app e toque em Comprar novamente para iniciar um novo pagamento.',
  form_expired: 'Este formulário expirou. Revise seu pedido e pague novamente.',
  cart_changed: 'Seu carrinho mudou em outra janela. Revise-o e pague novamente.',
  processing: 'Seu pagamento está sendo processado. Recarregue esta página em instantes.',
  nothing_to_pay: 'Nada no seu carrinho pode ser comprado agora.',
  fix_fields: 'Corrija os campos marcados abaixo.',
  card_declined: 'Seu cartão foi recusado. Nada foi cobrado. Tente outro cartão.',
  test_card_only: 'Esta loja está em modo de teste: use o cartão de teste 4242 4242 4242 4242.',
  payment_failed: 'Não foi possível concluir o pagamento. Nada foi cobrado. Tente novamente.',
  cardholder_name_required: 'Informe o nome impresso no cartão.',
  card_number_invalid: 'Informe um número de cartão válido.',
  card_expiry_invalid: 'Informe a validade como MM/AA.',
  card_expired: 'Este cartão está vencido.',
  card_cvc_invalid: 'Informe o código de segurança de 3 ou 4 dígitos.',
  test_mode:
    'Modo de teste: nenhum dinheiro é cobrado. O cartão 4242 4242 4242 4242 paga, 4000 0000 0000 0002 é recusado; qualquer validade futura e qualquer CVC.',
  secure_note: 'Os dados do seu cartão vão apenas para o provedor de pagamentos.',
};

const it: Record<MessageKey, string> = {
  title: 'Pagamento',
  order: 'Il tuo ordine',
  total: 'Totale',
  pay: 'Paga {amount}',
  pay_with_card: 'Paga con carta',
  cardholder_name: 'Intestatario della carta',
  card_number: 'Numero della carta',
  card_expiry: 'Scadenza (MM/AA)',
  card_cvc: 'Codice di sicurezza (CVC)',
  discount: '{percentage} di sconto',
  discount_until: "L'offerta termina il {date}",
  owned: 'Già nella tua libreria',
  unavailable: 'Non in vendita',
  open_app: "Apri nell'app",
  empty: 'Il tuo carrello è vuoto.',
  back_to_app: "Torna all'app per continuare a leggere.",
  session_expired_title: 'La sessione di pagamento è scaduta',
  session_expired: "Torna all'app e tocca di nuovo Acquista per iniziare un nuovo pagamento.",
  form_expired: 'Questo modulo è scaduto. Controlla il tuo ordine e paga di nuovo.',
  cart_changed: 'Il carrello è cambiato in un’altra finestra. Controllalo e paga di nuovo.',
  processing: 'Il pagamento è in corso. Ricarica questa pagina tra un momento.',
  nothing_to_pay: 'Nulla nel tuo carrello può essere acquistato ora.',
  fix_fields: 'Correggi i campi indicati qui sotto.',
  card_declined: 'La carta è stata rifiutata. Non ti è stato addebitato nulla. Prova un’altra carta.',
  test_card_only: 'Questo negozio è in modalità di prova: usa la carta di prova 4242 4242 4242 4242.',
  payment_failed: 'Non è stato possibile completare il pagamento. Non ti è stato addebitato nulla. Riprova.',
  cardholder_name_required: "Inserisci il nome dell'intestatario.",
  card_number_invalid: 'Inserisci un numero di carta valido.',
  card_expiry_invalid: 'Inserisci la scadenza come MM/AA.',
  card_expired: 'Questa carta è scaduta.',
  card_cvc_invalid: 'Inserisci il codice di sicurezza di 3 o 4 cifre.',
  test_mode:
    'Modalità di prova: nessun addebito. La carta 4242 4242 4242 4242 paga, 4000 0000 0000 0002 viene rifiutata; qualsiasi scadenza futura e qualsiasi CVC.',
  secure_note: 'I dati della carta vanno solo al fornitore dei pagamenti.',
};

const TABLES: Record<Lang, Record<MessageKey, string>> = { en, es, pt, it };

export function message(lang: Lang, key: MessageKey, values: Record<string, string> = {}): string {
  return TABLES[lang][key].replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}
