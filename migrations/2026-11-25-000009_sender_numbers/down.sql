DROP TABLE sender_numbers;
