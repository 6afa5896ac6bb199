import directors;

sub init_directors {
    new lists = directors.round_robin();
    new things = directors.round_robin();
    new utilities = directors.round_robin();
}