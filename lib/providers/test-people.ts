/**
 * The people behind each provider's sandbox test identities: two per provider, from the
 * provider's country, with made-up data (specimen names such as Erika Mustermann where the
 * scheme publishes one). Emails use example.com; phone numbers are well-formed E.164.
 */
import type { TTestPerson } from "./identities";

function p(
  given_name: string,
  family_name: string,
  birthdate: string,
  nationality: string,
  gender: "female" | "male",
  [street_address, postal_code, locality]: [string, string, string],
  phone_number: string,
): TTestPerson {
  const local = `${given_name}.${family_name}`
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z.]/g, "")
    .toLowerCase();
  return {
    given_name,
    family_name,
    birthdate,
    nationality,
    gender,
    address: { street_address, postal_code, locality, country: nationality },
    email: `${local}@example.com`,
    phone_number,
  };
}

// prettier-ignore
export const TEST_PEOPLE = {
  passport: [
    p("Anna", "Eriksson", "1974-08-12", "SE", "female", ["Storgatan 1", "114 51", "Stockholm"], "+46701234567"),
    p("Lukáš", "Novák", "1988-03-02", "CZ", "male", ["Národní 10", "110 00", "Praha"], "+420601234567"),
  ],
  de_eid: [
    p("Erika", "Mustermann", "1964-08-12", "DE", "female", ["Heidestraße 17", "51147", "Köln"], "+4915112345678"),
    p("Jonas", "Becker", "1991-05-23", "DE", "male", ["Lindenallee 4", "10115", "Berlin"], "+4917612345678"),
  ],
  nl_digid: [
    p("Willeke", "De Bruijn", "1985-03-10", "NL", "female", ["Prinsengracht 263", "1016 GV", "Amsterdam"], "+31612345678"),
    p("Daan", "Visser", "1979-11-30", "NL", "male", ["Oudegracht 12", "3511 AL", "Utrecht"], "+31687654321"),
  ],
  se_bankid: [
    p("Astrid", "Andersson", "1982-02-14", "SE", "female", ["Drottninggatan 5", "411 14", "Göteborg"], "+46731234567"),
    p("Erik", "Johansson", "1975-09-01", "SE", "male", ["Södra Förstadsgatan 2", "211 43", "Malmö"], "+46761234567"),
  ],
  no_bankid: [
    p("Kari", "Nordmann", "1980-06-17", "NO", "female", ["Karl Johans gate 22", "0159", "Oslo"], "+4791234567"),
    p("Ola", "Hansen", "1977-12-05", "NO", "male", ["Bryggen 3", "5003", "Bergen"], "+4747123456"),
  ],
  dk_mitid: [
    p("Mette", "Hansen", "1986-04-22", "DK", "female", ["Strøget 8", "1160", "København K"], "+4520123456"),
    p("Lars", "Nielsen", "1970-10-08", "DK", "male", ["Søndergade 14", "8000", "Aarhus C"], "+4530123456"),
  ],
  fi_ftn: [
    p("Maija", "Meikäläinen", "1983-07-19", "FI", "female", ["Mannerheimintie 5", "00100", "Helsinki"], "+358401234567"),
    p("Matti", "Virtanen", "1969-01-25", "FI", "male", ["Hämeenkatu 20", "33200", "Tampere"], "+358501234567"),
  ],
  be_itsme: [
    p("Lotte", "Peeters", "1990-02-03", "BE", "female", ["Meir 50", "2000", "Antwerpen"], "+32470123456"),
    p("Thomas", "Janssens", "1984-08-29", "BE", "male", ["Rue Neuve 1", "1000", "Bruxelles"], "+32480123456"),
  ],
  it_spid: [
    p("Mario", "Rossi", "1978-05-11", "IT", "male", ["Via del Corso 12", "00186", "Roma"], "+393471234567"),
    p("Giulia", "Bianchi", "1992-09-14", "IT", "female", ["Corso Buenos Aires 3", "20124", "Milano"], "+393331234567"),
  ],
  it_cie: [
    p("Francesca", "Romano", "1987-12-01", "IT", "female", ["Via Toledo 100", "80134", "Napoli"], "+393401234567"),
    p("Luca", "Ferrari", "1973-03-27", "IT", "male", ["Via Roma 7", "10121", "Torino"], "+393201234567"),
  ],
  fr_franceconnect: [
    p("Marie", "Dupont", "1981-10-21", "FR", "female", ["12 rue de Rivoli", "75004", "Paris"], "+33612345678"),
    p("Jean", "Martin", "1966-04-04", "FR", "male", ["5 place Bellecour", "69002", "Lyon"], "+33698765432"),
  ],
  es_clave: [
    p("Carmen", "Española", "1980-01-01", "ES", "female", ["Calle Mayor 1", "28013", "Madrid"], "+34612345678"),
    p("Javier", "García", "1976-06-30", "ES", "male", ["Passeig de Gràcia 20", "08007", "Barcelona"], "+34698765432"),
  ],
  es_dnie: [
    p("Lucía", "Fernández", "1989-11-12", "ES", "female", ["Calle Sierpes 30", "41004", "Sevilla"], "+34622345678"),
    p("Pablo", "Sánchez", "1971-02-19", "ES", "male", ["Calle Colón 8", "46004", "Valencia"], "+34633345678"),
  ],
  ee_smart_id: [
    p("Mari-Liis", "Männik", "1990-05-05", "EE", "female", ["Viru 2", "10140", "Tallinn"], "+37251234567"),
    p("Jaan", "Tamm", "1974-11-11", "EE", "male", ["Rüütli 15", "51007", "Tartu"], "+37256789012"),
  ],
  ee_id_card: [
    p("Kadri", "Kask", "1985-09-09", "EE", "female", ["Pikk 20", "10123", "Tallinn"], "+37252345678"),
    p("Andres", "Saar", "1968-07-07", "EE", "male", ["Küütri 3", "51007", "Tartu"], "+37253456789"),
  ],
  pl_mobywatel: [
    p("Anna", "Nowak", "1993-03-15", "PL", "female", ["ul. Floriańska 10", "31-019", "Kraków"], "+48501234567"),
    p("Jan", "Kowalski", "1970-12-24", "PL", "male", ["ul. Marszałkowska 1", "00-624", "Warszawa"], "+48601234567"),
  ],
  at_id_austria: [
    p("Maria", "Huber", "1983-01-17", "AT", "female", ["Stephansplatz 3", "1010", "Wien"], "+436641234567"),
    p("Florian", "Gruber", "1979-08-08", "AT", "male", ["Getreidegasse 9", "5020", "Salzburg"], "+436761234567"),
  ],
  ch_swissid: [
    p("Anna", "Müller", "1988-06-06", "CH", "female", ["Bahnhofstrasse 1", "8001", "Zürich"], "+41791234567"),
    p("Lukas", "Meier", "1975-04-14", "CH", "male", ["Marktgasse 5", "3011", "Bern"], "+41781234567"),
  ],
  uk_gov_one_login: [
    p("Olivia", "Smith", "1991-07-22", "GB", "female", ["10 Downing Street", "SW1A 2AA", "London"], "+447700900123"),
    p("Oliver", "Jones", "1968-02-02", "GB", "male", ["1 Deansgate", "M3 1AZ", "Manchester"], "+447700900456"),
  ],
  eudi_wallet: [
    p("Sofia", "Costa", "1995-05-18", "PT", "female", ["Rua Augusta 100", "1100-053", "Lisboa"], "+351912345678"),
    p("Mateusz", "Wiśniewski", "1987-10-03", "PL", "male", ["ul. Długa 5", "80-827", "Gdańsk"], "+48511234567"),
  ],
  digital_id_app: [
    p("Emily", "Taylor", "1996-11-02", "GB", "female", ["221B Baker Street", "NW1 6XE", "London"], "+447700900789"),
    p("Liam", "Murphy", "1989-03-17", "IE", "male", ["12 Grafton Street", "D02 XY00", "Dublin"], "+353851234567"),
  ],
  in_aadhaar_match: [
    p("Asha", "Sharma", "1990-08-15", "IN", "female", ["12 MG Road", "560001", "Bengaluru"], "+919812345678"),
    p("Rahul", "Verma", "1985-01-26", "IN", "male", ["45 Connaught Place", "110001", "New Delhi"], "+919876543210"),
  ],
  bank_data_match: [
    p("Max", "Mustermann", "1975-02-28", "DE", "male", ["Musterstraße 1", "80331", "München"], "+4916012345678"),
    p("Sophie", "Dubois", "1988-09-09", "FR", "female", ["8 rue Sainte-Catherine", "33000", "Bordeaux"], "+33611223344"),
  ],
  mno_kyc_match: [
    p("Laura", "Gómez", "1992-04-04", "ES", "female", ["Gran Vía 28", "28013", "Madrid"], "+34611111111"),
    p("Marco", "Conti", "1980-11-23", "IT", "male", ["Via Garibaldi 9", "16124", "Genova"], "+393491112233"),
  ],
} satisfies Record<string, readonly [TTestPerson, TTestPerson]>;
